package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mongoload/mongoload/internal/run"
)

// progressBar shows a load's progress on one line: redrawn in place (\r)
// on a terminal, otherwise written as a new line every few seconds so that
// logs stay readable.
type progressBar struct {
	w     io.Writer
	tty   bool
	every time.Duration // between lines when not on a terminal
	last  time.Time
	drawn bool
	now   func() time.Time
}

func newProgressBar(w io.Writer, env func(string) (string, bool)) *progressBar {
	// The first line comes after one interval, when there is a rate to show.
	return &progressBar{w: w, tty: isTerminal(w, env), every: 5 * time.Second, now: time.Now, last: time.Now()}
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

// update shows p; the final snapshot is left to the result line.
func (b *progressBar) update(p run.LoadProgress) {
	if p.Final {
		b.clear()
		return
	}
	if b.tty {
		fmt.Fprintf(b.w, "\r%s\x1b[K", run.ProgressLine(p))
		b.drawn = true
		return
	}
	if now := b.now(); now.Sub(b.last) >= b.every {
		fmt.Fprintln(b.w, run.ProgressLine(p))
		b.last = now
	}
}

// clear erases the bar on a terminal, so the result line takes its place.
func (b *progressBar) clear() {
	if b.tty && b.drawn {
		fmt.Fprint(b.w, "\r\x1b[K")
		b.drawn = false
	}
}
