package replay

import (
	"fmt"
	"os"
	"strings"

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

// openEntries opens path as a trace, or as a traffic recording when it is
// one.
func openEntries(path string) (*entries, error) {
	if recording.IsRecording(path) || strings.HasSuffix(path, ".bin") {
		r, err := recording.Open(path)
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
