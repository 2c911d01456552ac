package run

import (
	"fmt"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/results"
)

// The lines of a load, for the command's progress bar and its result.

const barWidth = 24

// ProgressLine is a load's progress line:
//
//	load airline.flights [#########...............]  37.5%  3,750,000/10,000,000  12,480 docs/s  25.1 MB/s  ETA 8m20s
func ProgressLine(p loader.Progress) string {
	f := min(max(p.Fraction(), 0), 1)
	filled := int(f * barWidth)
	bar := strings.Repeat("#", filled) + strings.Repeat(".", barWidth-filled)
	eta := etaText(p)
	return fmt.Sprintf("load %s%s [%s] %5.1f%%  %s/%s  %s docs/s  %.1f MB/s  %s",
		p.Collection, loader.PartLabel(p.Part, p.Parts), bar, 100*f, results.Thousands(p.Done()), results.Thousands(p.Total),
		results.Thousands(int64(p.Rate())), p.MBps(), eta)
}

// LoadedLine is the line that ends a collection's load: what was written,
// at what rate, and the client CPU it took per document.
func LoadedLine(r loader.Result, cpu time.Duration) string {
	p := r.Progress
	n := p.Written + p.Duplicates
	var b strings.Builder
	fmt.Fprintf(&b, "loaded %s%s: %s documents (%s of BSON) in %s: %s docs/s, %.1f MB/s",
		p.Collection, loader.PartLabel(p.Part, p.Parts), results.Thousands(p.Written), DecimalBytes(p.Bytes), results.Rounded(p.Elapsed),
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

// DecimalBytes is a size in decimal units: 512 B, 20.1 MB, 1.3 GB.
func DecimalBytes(n int64) string {
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
