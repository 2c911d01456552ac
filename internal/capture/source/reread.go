package source

import (
	"bytes"
	"errors"
	"io"
	"os"
)

// An input is read from its start more than once in two places: the scan
// for a log's first time (several logs are read in the order of their
// times) and an export that is not one document a line (read again as
// documents over several lines). A regular file is read again from its
// start; a stream (a pipe, /dev/stdin, a FIFO, <(zcat ...)) cannot be,
// and opening its name again gives what follows, not its start: what the
// first pass read is kept, and read again before the rest of the stream
// (promises6: 11 of 36 entries piped to --log /dev/stdin were lost).

// maxKept bounds what is kept of a stream's start (its bytes as read,
// gzip or not).
const maxKept = 256 << 20

// errNotKept: a stream's start was too long to keep for a second pass.
var errNotKept = errors.New("it is a stream (a pipe or a FIFO), and its start is too long to read again: write it to a file and give the file")

// rereader reads an opened input, keeping a stream's bytes while keep
// says so (and up to maxKept), so that again can read it from its start.
type rereader struct {
	f      *os.File
	stream bool
	keep   func() bool
	kept   bytes.Buffer
	over   bool
}

// newRereader wraps f; keep says whether what is read now may be needed
// again (nil: all of it).
func newRereader(f *os.File, keep func() bool) (*rereader, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if keep == nil {
		keep = func() bool { return true }
	}
	return &rereader{f: f, stream: !st.Mode().IsRegular(), keep: keep}, nil
}

func (r *rereader) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	if r.stream && !r.over && n > 0 && r.keep() {
		if r.kept.Len()+n > maxKept {
			r.over = true
			r.kept = bytes.Buffer{}
		} else {
			r.kept.Write(p[:n])
		}
	}
	return n, err
}

// again is the input from its start: a file sought back, a stream's kept
// start then its rest. It reads nothing more into what is kept.
func (r *rereader) again() (io.Reader, error) {
	if !r.stream {
		if _, err := r.f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		return r.f, nil
	}
	if r.over {
		return nil, errNotKept
	}
	r.keep = func() bool { return false }
	kept := bytes.NewReader(r.kept.Bytes())
	r.kept = bytes.Buffer{}
	return io.MultiReader(kept, r.f), nil
}

func (r *rereader) Close() error { return r.f.Close() }
