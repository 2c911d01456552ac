package replay

import (
	"errors"
	"fmt"
	"os"

	"github.com/mongoload/mongoload/internal/recording"
	"github.com/mongoload/mongoload/internal/trace"
)

// entries is what a replay reads its operations from: mongoload's trace
// (capture --trace) or MongoDB's own traffic recording
// (startTrafficRecording, internal/recording), told apart by their first
// bytes.
type entries struct {
	Next   func() (trace.Entry, error)
	Header trace.Header
	// End is the trailer (nil: none) and what did not read, once Next
	// returned io.EOF; skipped are the recording's requests that are no
	// entry, by why.
	End   func() (*trace.Trailer, trace.Damage, map[string]int64)
	Close func() error
}

// openEntries opens path as a trace when it starts with a trace's magic
// line, else as a traffic recording: by its content, never its name
// (capture --trace shop.bin writes a trace, which a .bin rule refused).
func openEntries(path string) (*entries, error) {
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() && !fi.Mode().IsRegular() {
		// Read twice (Scan plans, the feed sends), and once more to tell
		// its kind: a stream would give its start to the first reading only.
		return nil, fmt.Errorf("%s: a stream (a pipe or a FIFO): replay reads its trace more than once; write it to a file and give the file", path)
	}
	if !trace.IsTrace(path) {
		r, err := recording.Open(path)
		if errors.Is(err, recording.ErrLayout) {
			return nil, fmt.Errorf("%s: %w, and %w", path, trace.ErrNotTrace, recording.ErrLayout)
		}
		if err != nil {
			return nil, err
		}
		return &entries{Next: r.Next, Header: r.Header, Close: r.Close,
			End: func() (*trace.Trailer, trace.Damage, map[string]int64) { return r.Trailer, r.Damage, r.Skipped }}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := trace.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &entries{Next: r.Next, Header: r.Header, Close: f.Close,
		End: func() (*trace.Trailer, trace.Damage, map[string]int64) { return r.Trailer, r.Damage, nil }}, nil
}
