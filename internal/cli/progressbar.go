package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/results"
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
func (b *progressBar) update(p loader.Progress) {
	if p.Final {
		b.clear()
		return
	}
	if b.tty {
		fmt.Fprintf(b.w, "\r%s\x1b[K", progressText(p))
		b.drawn = true
		return
	}
	if now := b.now(); now.Sub(b.last) >= b.every {
		fmt.Fprintln(b.w, progressText(p))
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

const barWidth = 24

// progressText is the progress line:
//
//	load airline.flights [#########...............]  37.5%  3,750,000/10,000,000  12,480 docs/s  25.1 MB/s  ETA 8m20s
func progressText(p loader.Progress) string {
	f := min(max(p.Fraction(), 0), 1)
	filled := int(f * barWidth)
	bar := strings.Repeat("#", filled) + strings.Repeat(".", barWidth-filled)
	eta := etaText(p)
	return fmt.Sprintf("load %s%s [%s] %5.1f%%  %s/%s  %s docs/s  %.1f MB/s  %s",
		p.Collection, loader.PartLabel(p.Part, p.Parts), bar, 100*f, results.Thousands(p.Done()), results.Thousands(p.Total),
		results.Thousands(int64(p.Rate())), p.MBps(), eta)
}

// resultText is the line that ends a collection's load: what was written,
// at what rate, and the client CPU it took per document.
func resultText(r loader.Result, cpu time.Duration) string {
	p := r.Progress
	n := p.Written + p.Duplicates
	var b strings.Builder
	fmt.Fprintf(&b, "loaded %s%s: %s documents (%s of BSON) in %s: %s docs/s, %.1f MB/s",
		p.Collection, loader.PartLabel(p.Part, p.Parts), results.Thousands(p.Written), bytesText(p.Bytes), results.Rounded(p.Elapsed),
		results.Thousands(int64(p.Rate())), p.MBps())
	if n > 0 {
		fmt.Fprintf(&b, ", client CPU %.1f µs/doc", float64(cpu.Microseconds())/float64(n))
	}
	var notes []string
	if p.Already > 0 {
		notes = append(notes, results.Thousands(p.Already)+" loaded before")
	}
	if p.Duplicates > 0 {
		notes = append(notes, results.Thousands(p.Duplicates)+" of the redone keys were already there")
	}
	if len(notes) > 0 {
		b.WriteString(" (" + strings.Join(notes, "; ") + ")")
	}
	return b.String()
}

// etaText is the estimated time left of a load: "ETA -" when unknown,
// "ETA over 100 years" past what it can tell.
func etaText(p loader.Progress) string {
	switch d := p.ETA(); {
	case d <= 0:
		return "ETA -"
	case p.ETAUnbounded():
		return "ETA over 100 years"
	default:
		return "ETA " + results.Rounded(d)
	}
}

// bytesText is a size in decimal units: 512 B, 20.1 MB, 1.3 GB.
func bytesText(n int64) string {
	f := float64(n)
	for _, u := range []struct {
		div  float64
		unit string
	}{{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "KB"}} {
		if f >= u.div {
			return fmt.Sprintf("%.1f %s", f/u.div, u.unit)
		}
	}
	return fmt.Sprintf("%d B", n)
}

// commas writes n with thousands separators: 12,345,678.
func commas(n int64) string { return results.Thousands(n) }
