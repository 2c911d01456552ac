package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// table lays out rows in columns two spaces apart: the first left columns
// (at least one) left-aligned for names, the rest right-aligned for numbers.
// text/tabwriter aligns every column the same way, which reads badly for a
// name column.
type table struct {
	rows [][]string
	left int
	// textLast left-aligns the last column too: a verdict, a note.
	textLast bool
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w *errWriter, indent string) {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			switch {
			case i >= max(t.left, 1) && !(t.textLast && i == len(r)-1):
				b.WriteString(pad + c)
			case i < len(r)-1: // no trailing spaces after the last cell
				b.WriteString(c + pad)
			default:
				b.WriteString(c)
			}
		}
		w.printf("%s\n", b.String())
	}
}

// errWriter keeps the first write error, so a report is a plain sequence of
// prints with one error check at the end.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, a ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, a...)
	}
}
