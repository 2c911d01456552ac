package source

import (
	"errors"
	"io"
	"os"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// maxPrescan bounds what the scan for a stream's first time reads (its
// bytes as read, gzip or not), all of which is kept to be read again
// (reread.go): a stream whose first lines hold no time within it sorts
// first, as a file whose first 1000 lines hold none.
const maxPrescan = 16 << 20

// logInput is one log given to --log.
type logInput struct {
	path  string
	first time.Time // its first line's time (zero: none found, or not looked for)
	size  int64     // its size, 0 for a stream
	// stream is a stream's reader, open from the scan for its time to its
	// reading (it cannot be opened again); nil for a regular file, opened
	// again by open (hundreds of rotated logs need not all be open).
	stream *rereader
}

// openLog opens path and, when sorting (several logs), finds its first
// line's time.
func openLog(path string, sorting bool) (*logInput, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := newRereader(f, nil)
	if err != nil {
		f.Close()
		return nil, err
	}
	in := &logInput{path: path}
	if r.stream {
		in.stream = r
	} else {
		defer f.Close()
		st, _ := f.Stat()
		in.size = st.Size()
	}
	if sorting {
		in.first = firstTime(r, func() bool { return r.kept.Len() > maxPrescan })
	}
	return in, nil
}

// open is the log's bytes from its start, once.
func (in *logInput) open() (io.ReadCloser, error) {
	if in.stream == nil {
		return os.Open(in.path)
	}
	s := in.stream
	in.stream = nil
	r, err := s.again()
	if err != nil {
		s.Close()
		return nil, err
	}
	return readCloser{r, s}, nil
}

// close releases a stream that was not read (the capture stopped first).
func (in *logInput) close() {
	if in.stream != nil {
		in.stream.Close()
	}
}

type readCloser struct {
	io.Reader
	io.Closer
}

// firstTime is the time of the first line of r that has one, among its
// first 1000 lines (or until enough says so).
func firstTime(r io.Reader, enough func() bool) time.Time {
	var first time.Time
	long := 0
	errFound := errors.New("found")
	scanned := 0
	_ = eachLine(maybeGzip(r), &long, func(line []byte) error {
		var raw bson.Raw
		if scanned++; scanned > 1000 || enough() {
			return errFound // a log whose first lines have no time sorts first
		}
		if bson.UnmarshalExtJSON(line, false, &raw) != nil {
			return nil
		}
		if t, ok := raw.Lookup("t").DateTimeOK(); ok {
			first = bson.DateTime(t).Time()
			return errFound
		}
		return nil
	})
	return first
}
