package ycsb

import (
	"os"
	"testing"

	"github.com/mongoload/mongoload/internal/config"
)

// FuzzProperties: no property file, however malformed, panics the parser
// or the decoder; each problem is an error or a warning, and whatever
// decodes renders into a workload that parses.
func FuzzProperties(f *testing.F) {
	if data, err := os.ReadFile("testdata/workloada"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("a=\\u00zz\nb: c \\\n d\n# x\n! y\nrecordcount=-1\nfieldcount=0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ps := NewProperties()
		if err := ps.Parse(data, "fuzz"); err != nil {
			return
		}
		w, _, err := Decode(ps)
		if err != nil {
			return
		}
		// What decodes must render into YAML that parses.
		if _, err := config.Parse(w.YAML(RenderOptions{Name: "fuzz"}), "fuzz"); err != nil {
			t.Fatalf("rendered YAML does not parse: %v\n%s", err, w.YAML(RenderOptions{Name: "fuzz"}))
		}
	})
}
