package archtest

import (
	"slices"
	"strings"
	"testing"
)

// The result model, its sinks and its renderers: internal/results is what
// a run's results are (the versioned schema, what counts, clocks, totals,
// Build); internal/sink holds every sink, what a run reports to while it
// runs; internal/report and its subpackages show or write the results.
// Packages that need a result's types import the model; only the command
// layer (internal/cli, and the dashboard for the page's assets) reaches
// the renderers.

// A rule says which files it governs, and which of the mongoload packages
// such a file may import (allowed) or must not (denied).
type rule struct {
	name    string
	applies func(f goFile) bool
	ok      func(f goFile, imp string) bool
	why     string
}

// violations lists every import of files that breaks one of rules.
func violations(files []goFile, rules []rule) []string {
	var out []string
	for _, r := range rules {
		for _, f := range files {
			if !r.applies(f) {
				continue
			}
			for _, imp := range f.imports {
				if !r.ok(f, imp) {
					out = append(out, r.name+": "+f.path+" imports "+imp+": "+r.why)
				}
			}
		}
	}
	return out
}

// isRenderer reports whether pkg is internal/report or one of its subpackages.
func isRenderer(pkg string) bool { return under(pkg, "internal/report") }

// resultRules are the boundaries between the model and its renderers.
var resultRules = []rule{
	{
		name:    "the model renders nothing",
		applies: func(f goFile) bool { return under(f.dir(), "internal/results") },
		// The model is built from the metrics' histograms and the
		// process's CPU; its tests use its own fixtures (resultstest).
		ok: func(_ goFile, imp string) bool {
			return under(imp, "internal/results") || imp == "internal/metrics" || imp == "internal/procstat"
		},
		why: "internal/results is the result model and imports only internal/metrics and internal/procstat: no renderer, no sink, nothing that runs load",
	},
	{
		name:    "sinks carry results, they do not render",
		applies: func(f goFile) bool { return under(f.dir(), "internal/sink") },
		ok: func(f goFile, imp string) bool {
			return under(imp, "internal/sink") || slices.Contains([]string{"internal/metrics", "internal/results", "internal/dashboard"}, imp) ||
				f.test && imp == "internal/results/resultstest"
		},
		why: "internal/sink delivers interval snapshots and the result to the live line, the interval log, YCSB's status, Prometheus and the dashboard; it knows only the metrics, the model and the dashboard it feeds",
	},
	{
		name:    "renderers are imported by the command layer only",
		applies: func(f goFile) bool { return !f.test && !isRenderer(f.dir()) },
		ok: func(f goFile, imp string) bool {
			switch {
			case !isRenderer(imp):
				return true
			case f.dir() == "internal/cli":
				return true
			case imp == "internal/report/html" && f.dir() == "internal/dashboard":
				return true // the live page serves the report page's chart assets
			}
			return false
		},
		why: "a package that needs a result's types imports internal/results, a run's sinks are internal/sink's; the command layer (internal/cli) renders",
	},
	{
		name: "renderers depend on the model, not on what runs load",
		// Their tests may analyse a sweep to have one to render.
		applies: func(f goFile) bool { return !f.test && isRenderer(f.dir()) },
		ok: func(_ goFile, imp string) bool {
			return isRenderer(imp) || slices.Contains([]string{"internal/results", "internal/metrics", "internal/procstat"}, imp)
		},
		why: "internal/report and its subpackages render the model (internal/results, interval metrics); they never import the CLI, the run, the sinks, the engine, the driver or the analyses",
	},
}

// TestResultModelBoundaries keeps the model apart from its renderers.
func TestResultModelBoundaries(t *testing.T) {
	for _, v := range violations(tree(t), resultRules) {
		t.Error(v)
	}
}

// TestResultRulesCatchRegressions feeds each rule the import it exists to
// refuse, so a rule that no longer matches anything fails here.
func TestResultRulesCatchRegressions(t *testing.T) {
	tests := []struct {
		file goFile
		want string // the rule that must refuse it
	}{
		{goFile{path: "internal/results/build.go", imports: []string{"internal/report"}}, "the model renders nothing"},
		{goFile{path: "internal/results/build_test.go", test: true, imports: []string{"internal/report/reporttest"}}, "the model renders nothing"},
		{goFile{path: "internal/results/result.go", imports: []string{"internal/sink"}}, "the model renders nothing"},
		{goFile{path: "internal/sink/fanout.go", imports: []string{"internal/report"}}, "sinks carry results, they do not render"},
		{goFile{path: "internal/sink/fanout.go", imports: []string{"internal/results/resultstest"}}, "sinks carry results, they do not render"},
		{goFile{path: "internal/sink/live.go", imports: []string{"internal/report"}}, "sinks carry results, they do not render"},
		{goFile{path: "internal/telemetry/delta.go", imports: []string{"internal/report"}}, "renderers are imported by the command layer only"},
		{goFile{path: "internal/run/measure.go", imports: []string{"internal/report"}}, "renderers are imported by the command layer only"},
		{goFile{path: "internal/run/operator.go", imports: []string{"internal/report/html"}}, "renderers are imported by the command layer only"},
		{goFile{path: "internal/dashboard/events.go", imports: []string{"internal/report"}}, "renderers are imported by the command layer only"},
		{goFile{path: "bench/ceiling/main.go", imports: []string{"internal/report"}}, "renderers are imported by the command layer only"},
		{goFile{path: "internal/report/live.go", imports: []string{"internal/sink"}}, "renderers depend on the model, not on what runs load"},
		{goFile{path: "internal/report/console.go", imports: []string{"internal/run"}}, "renderers depend on the model, not on what runs load"},
		{goFile{path: "internal/report/console.go", imports: []string{"internal/cli"}}, "renderers depend on the model, not on what runs load"},
		{goFile{path: "internal/report/html/model.go", imports: []string{"internal/analysis"}}, "renderers depend on the model, not on what runs load"},
		{goFile{path: "internal/report/csv.go", imports: []string{"internal/engine"}}, "renderers depend on the model, not on what runs load"},
	}
	for _, tt := range tests {
		got := violations([]goFile{tt.file}, resultRules)
		if !slices.ContainsFunc(got, func(v string) bool { return strings.HasPrefix(v, tt.want+": ") }) {
			t.Errorf("%s importing %v: violations %q, want one of rule %q", tt.file.path, tt.file.imports, got, tt.want)
		}
	}
	// What the tree does today passes.
	fine := []goFile{
		{path: "internal/cli/render.go", imports: []string{"internal/report", "internal/report/html", "internal/results"}},
		{path: "internal/cli/run.go", imports: []string{"internal/report", "internal/run", "internal/sink"}},
		{path: "internal/sink/dashboard.go", imports: []string{"internal/dashboard", "internal/results"}},
		{path: "internal/sink/promsink/promsink.go", imports: []string{"internal/sink", "internal/metrics"}},
		{path: "internal/merge/merge.go", imports: []string{"internal/results", "internal/metrics"}},
		{path: "internal/results/build_test.go", test: true, imports: []string{"internal/results", "internal/results/resultstest"}},
		{path: "internal/sink/fanout_test.go", test: true, imports: []string{"internal/results", "internal/results/resultstest"}},
		{path: "internal/report/html/html.go", imports: []string{"internal/report", "internal/results"}},
		{path: "internal/analysis/pool_test.go", test: true, imports: []string{"internal/report", "internal/results/resultstest"}},
	}
	if got := violations(fine, resultRules); len(got) != 0 {
		t.Errorf("allowed imports refused: %q", got)
	}
}
