package sink

import (
	"fmt"
	"io"
	"os"
	"time"
)

// ProgressBar shows a long task's progress (a load's) on one line:
// redrawn in place (\r) on a terminal, otherwise written as a new line
// every few seconds so that logs stay readable. line renders a snapshot.
type ProgressBar[P any] struct {
	w     io.Writer
	line  func(P) string
	tty   bool
	every time.Duration // between lines when not on a terminal
	last  time.Time
	drawn bool
	now   func() time.Time
}

// NewProgressBar draws on w; env looks up TERM.
func NewProgressBar[P any](w io.Writer, env func(string) (string, bool), line func(P) string) *ProgressBar[P] {
	// The first line comes after one interval, when there is a rate to show.
	return &ProgressBar[P]{w: w, line: line, tty: isTerminal(w, env), every: 5 * time.Second, now: time.Now, last: time.Now()}
}

// isTerminal reports whether w is a terminal that understands \r and the
// erase-line sequence.
func isTerminal(w io.Writer, env func(string) (string, bool)) bool {
	if t, ok := env("TERM"); ok && t == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Update shows p; the final snapshot is left to the result line.
func (b *ProgressBar[P]) Update(p P, final bool) {
	if final {
		b.Clear()
		return
	}
	if b.tty {
		fmt.Fprintf(b.w, "\r%s\x1b[K", b.line(p))
		b.drawn = true
		return
	}
	if now := b.now(); now.Sub(b.last) >= b.every {
		fmt.Fprintln(b.w, b.line(p))
		b.last = now
	}
}

// Clear erases the bar on a terminal, so the result line takes its place.
func (b *ProgressBar[P]) Clear() {
	if b.tty && b.drawn {
		fmt.Fprint(b.w, "\r\x1b[K")
		b.drawn = false
	}
}
