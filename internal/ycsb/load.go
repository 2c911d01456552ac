package ycsb

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

// Load reads YCSB property files in order, then the -p arguments
// ("key=value", later ones winning, all over the files), and translates
// the result into a mongoload configuration. Warnings (one per property
// mongoload ignores or cannot honour) are returned for the caller to show;
// problems come back all at once as config.Errors.
func Load(files, args []string) (*config.Config, *Workload, []string, error) {
	ps := NewProperties()
	for _, f := range files {
		if err := ps.LoadFile(f); err != nil {
			return nil, nil, nil, err
		}
	}
	var es config.Errors
	for _, a := range args {
		if err := ps.SetArg(a); err != nil {
			es = append(es, err.(*config.Error))
		}
	}
	if len(es) > 0 {
		return nil, nil, nil, es
	}
	w, warnings, err := Decode(ps)
	if err != nil {
		return nil, nil, warnings, err
	}
	if _, ok := ps.Get("operationcount"); !ok && w.MaxExecutionTime == 0 {
		warnings = append(warnings, "neither operationcount nor maxexecutiontime is set: YCSB would run until stopped; mongoload runs for --duration (default 30s)")
	}
	name := "ycsb"
	if len(files) > 0 {
		name = filepath.Base(files[len(files)-1])
	}
	source := "ycsb:" + strings.Join(files, ",")
	cfg, err := config.Parse(w.YAML(RenderOptions{Name: name, Description: w.Describe(name)}), source)
	if err != nil {
		return nil, nil, warnings, fmt.Errorf("translating the YCSB properties (a mongoload bug; please report it): %w", err)
	}
	if w.URL != "" {
		cfg.Connection.URI = w.URL // the file writes it redacted; the run connects with the password
	}
	return cfg, w, warnings, nil
}

// Describe says in one line what the workload does: "YCSB workloada:
// read 50%, update 50%, zipfian".
func (w *Workload) Describe(name string) string {
	return fmt.Sprintf("YCSB %s: %s", name, w.Mix())
}

// Mix says what the operations are, in proportions of 100, and how keys
// are chosen: "read 50%, update 50%, zipfian".
func (w *Workload) Mix() string {
	total := w.Read + w.Update + w.Insert + w.Scan + w.ReadModifyWrite
	var parts []string
	for _, m := range []struct {
		name string
		p    float64
	}{{"read", w.Read}, {"update", w.Update}, {"insert", w.Insert}, {"scan", w.Scan}, {"read-modify-write", w.ReadModifyWrite}} {
		if m.p > 0 {
			parts = append(parts, fmt.Sprintf("%s %s%%", m.name, num(roundTo(100*m.p/total, 2))))
		}
	}
	return strings.Join(parts, ", ") + ", " + w.RequestDistribution
}

func roundTo(f float64, digits int) float64 {
	p := 1.0
	for range digits {
		p *= 10
	}
	return float64(int64(f*p+0.5)) / p
}
