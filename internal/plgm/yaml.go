package plgm

import (
	"io"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

// WriteYAML writes the converted workload as a mongoload workload file:
// documents in block style, generator calls and queries in flow style,
// and a header saying where it came from. The password is never written.
func WriteYAML(w io.Writer, r *Result) error {
	return config.Encode(w, r.Config, config.Encoding{Header: header(r), Always: []string{"concurrency", "duration"}})
}

func header(r *Result) string {
	lines := []string{
		"Converted from plgm by 'mongoload import plgm'.",
		"  collections: " + strings.Join(r.CollectionFiles, ", "),
	}
	if len(r.QueryFiles) > 0 {
		lines = append(lines, "  queries: "+strings.Join(r.QueryFiles, ", "))
	}
	lines = append(lines, "  mix after plgm's normalization: "+mixText(r.Mix),
		"Check it with 'mongoload validate FILE', run it with 'mongoload run FILE'.")
	if len(r.Warnings) > 0 {
		lines = append(lines, "Conversion warnings:")
		for _, w := range r.Warnings {
			lines = append(lines, "  "+w.String())
		}
	}
	return strings.Join(lines, "\n")
}
