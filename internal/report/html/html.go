// Package html writes mongoload's HTML report: one self-contained file
// (the charting library, the styles, the script and the data inlined, so
// it opens without a network) for a results file, a sweep or a comparison.
// Charts are drawn by uPlot (assets/README.md says which version and
// where it came from); this package only prepares their data.
package html

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"

	"github.com/mongoload/mongoload/internal/results"
)

// uPlotVersion is the vendored uPlot's version (assets/README.md).
const uPlotVersion = "1.6.32"

var (
	//go:embed assets/uPlot.iife.min.js
	uPlotJS string
	//go:embed assets/uPlot.min.css
	uPlotCSS string
	//go:embed assets/LICENSE-uPlot
	uPlotLicense string
	//go:embed charts.js
	chartsJS string
	//go:embed style.css
	styleCSS string
	//go:embed page.tmpl
	pageTmpl string
)

var page = template.Must(template.New("page").Parse(pageTmpl))

// Page is what one report shows: exactly one of Result, Sweep and
// Comparison (with Inputs, the compared files' contents, for its charts).
type Page struct {
	Result     *results.Result
	Sweep      *results.Sweep
	Comparison *results.Comparison
	Inputs     []Input
	// AB is an A/B comparison (mongoload ab).
	AB *results.AB
}

// Input is one compared file.
type Input struct {
	Label  string
	Result *results.Result
	Sweep  *results.Sweep
}

// Write renders p as one HTML document.
func Write(w io.Writer, p Page) error {
	m, err := model(p)
	if err != nil {
		return err
	}
	data, err := json.Marshal(m.Charts)
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	return page.Execute(w, struct {
		*view
		Data                            template.JS
		UPlotJS, ChartsJS, UPlotLicense template.JS
		UPlotCSS, StyleCSS              template.CSS
		UPlotVersion                    string
	}{m, template.JS(data), template.JS(uPlotJS), template.JS(chartsJS), template.JS("/*\n" + uPlotLicense + "*/"),
		template.CSS(uPlotCSS), template.CSS(styleCSS), uPlotVersion})
}

// WriteFile writes the report to path atomically (a temporary file beside
// it, then a rename).
func WriteFile(path string, p Page) error {
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		return fmt.Errorf("write HTML report %q: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write HTML report %q: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("write HTML report %q: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("write HTML report %q: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write HTML report %q: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write HTML report %q: %w", path, err)
	}
	return nil
}
