package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPhaseOrder: the phases of a run, in the order the architecture
// document gives them, and their values in that order too (pipeline.enter
// relies on it to refuse a phase entered out of turn).
func TestPhaseOrder(t *testing.T) {
	want := []string{"connect", "setup", "seed", "context", "warm-up", "measure", "collect", "explain", "write"}
	var got []string
	for i, p := range runPhases {
		got = append(got, p.String())
		if i > 0 && p <= runPhases[i-1] {
			t.Errorf("%s (%d) does not come after %s (%d)", p, p, runPhases[i-1], runPhases[i-1])
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("phases %v, want %v", got, want)
	}
	for _, p := range runPhases {
		if p.unwinds() != (p > PhaseMeasure) {
			t.Errorf("%s unwinds %v: only the phases after measure do", p, p.unwinds())
		}
	}
}

// recorder is a fake observer: it logs each hook and its close.
type recorder struct {
	name string
	join []Phase
	fail Phase // enter fails at this phase; -1 never
	log  *[]string
}

func (f *recorder) phases() []Phase { return f.join }

func (f *recorder) enter(p Phase, _ *runState) error {
	*f.log = append(*f.log, f.name+":"+p.String())
	if p == f.fail {
		return errors.New(f.name + " failed")
	}
	return nil
}

func (f *recorder) close() { *f.log = append(*f.log, f.name+":close") }

// TestPipelineHookOrder: entering every phase in turn runs each
// observer's hooks only in the phases it declares, observers in their
// order up to measure and in reverse after it, and closes them last first.
// The expected sequence is written out by hand.
func TestPipelineHookOrder(t *testing.T) {
	var log []string
	a := &recorder{name: "a", join: []Phase{PhaseContext, PhaseMeasure, PhaseCollect}, fail: -1, log: &log}
	b := &recorder{name: "b", join: []Phase{PhaseWarmup, PhaseMeasure, PhaseCollect, PhaseWrite}, fail: -1, log: &log}
	c := &recorder{name: "c", join: []Phase{PhaseContext, PhaseWarmup, PhaseMeasure, PhaseCollect, PhaseExplain}, fail: -1, log: &log}
	pl := newPipeline(a, b, c)
	for _, p := range runPhases {
		if err := pl.enter(p, &runState{}); err != nil {
			t.Fatal(err)
		}
	}
	pl.close()
	want := []string{
		"a:context", "c:context",
		"b:warm-up", "c:warm-up",
		"a:measure", "b:measure", "c:measure",
		"c:collect", "b:collect", "a:collect",
		"c:explain",
		"b:write",
		"c:close", "b:close", "a:close",
	}
	if !slices.Equal(log, want) {
		t.Errorf("hooks ran\n%s\nwant\n%s", strings.Join(log, " "), strings.Join(want, " "))
	}
	// Each observer's own hooks came in the order it declared them.
	for _, f := range []*recorder{a, b, c} {
		var mine []string
		for _, l := range log {
			if name, ph, _ := strings.Cut(l, ":"); name == f.name && ph != "close" {
				mine = append(mine, ph)
			}
		}
		var declared []string
		for _, p := range f.join {
			declared = append(declared, p.String())
		}
		if !slices.Equal(mine, declared) {
			t.Errorf("%s: hooks %v, declared %v", f.name, mine, declared)
		}
	}
}

// TestPipelineStopsAtFirstError: a failing hook stops its phase and its
// error is the phase's; close still closes everything.
func TestPipelineStopsAtFirstError(t *testing.T) {
	var log []string
	a := &recorder{name: "a", join: []Phase{PhaseContext}, fail: PhaseContext, log: &log}
	b := &recorder{name: "b", join: []Phase{PhaseContext}, fail: -1, log: &log}
	pl := newPipeline(a, b)
	if err := pl.enter(PhaseContext, &runState{}); err == nil || err.Error() != "a failed" {
		t.Errorf("err %v, want a's", err)
	}
	pl.close()
	if want := []string{"a:context", "b:close", "a:close"}; !slices.Equal(log, want) {
		t.Errorf("log %v, want %v", log, want)
	}
}

// TestPipelineRefusesPhasesOutOfTurn: a phase entered twice, or after a
// later one, is a bug in the step, and panics rather than run hooks out
// of order.
func TestPipelineRefusesPhasesOutOfTurn(t *testing.T) {
	tests := []struct {
		name  string
		seq   []Phase
		panic bool
	}{
		{"in order, with gaps", []Phase{PhaseContext, PhaseWarmup, PhaseCollect, PhaseWrite}, false}, // no measure: interrupted during the warm-up
		{"twice", []Phase{PhaseContext, PhaseContext}, true},
		{"backwards", []Phase{PhaseMeasure, PhaseWarmup}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log []string
			pl := newPipeline(&recorder{name: "a", join: runPhases, fail: -1, log: &log})
			panicked := func() (p bool) {
				defer func() { p = recover() != nil }()
				for _, ph := range tt.seq {
					_ = pl.enter(ph, &runState{})
				}
				return false
			}()
			if panicked != tt.panic {
				t.Errorf("panicked %v, want %v (log %v)", panicked, tt.panic, log)
			}
		})
	}
}

// TestRunObserversOrder checks the ordering constraints of a measured
// step against the pipeline measureStep assembles: who must act before
// whom in each phase, and why.
func TestRunObserversOrder(t *testing.T) {
	fs := newFlags("run", "", IO{Stdout: io.Discard, Stderr: io.Discard})
	addSettings(fs)
	if err := parse(fs, []string{writeFile(t, "w.yaml", minimal)}, 1); err != nil {
		t.Fatal(err)
	}
	cfg, plan, err := resolve(fs.Arg(0), fs, func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	_, _, pl := runObservers(IO{Stdout: io.Discard, Stderr: io.Discard}, cfg, plan, nil, nil)
	defer pl.close()
	name := func(ob observer) string {
		return strings.TrimPrefix(strings.TrimPrefix(fmt.Sprintf("%T", ob), "*"), "cli.")
	}
	order := func(p Phase) []string {
		var out []string
		for _, ob := range pl.order(p) {
			out = append(out, name(ob))
		}
		return out
	}
	constraints := []struct {
		phase         Phase
		before, after string
		why           string
	}{
		{PhaseContext, "operator", "telemetryStage", "the context is read before the telemetry connection opens"},
		{PhaseMeasure, "operator", "usageStage", "the first interval's CPU is read first"},
		{PhaseMeasure, "usageStage", "telemetryStage", "the client's usage starts before the sampler"},
		{PhaseMeasure, "telemetryStage", "faultStage", "faults are armed last"},
		{PhaseCollect, "faultStage", "resultStage", "the injected faults go into the result"},
		{PhaseCollect, "resultStage", "telemetryStage", "the result is built and written before waiting for the final sample"},
		{PhaseCollect, "telemetryStage", "operator", "the operator's commands after the run come after the final sample"},
	}
	for _, c := range constraints {
		got := order(c.phase)
		i, j := slices.Index(got, c.before), slices.Index(got, c.after)
		if i < 0 || j < 0 || i >= j {
			t.Errorf("%s: %s must come before %s (%s); order %v", c.phase, c.before, c.after, c.why, got)
		}
	}
	// Explaining and writing come after everything is collected, and the
	// results file is written once all is in the result.
	if got := order(PhaseExplain); !slices.Equal(got, []string{"operator"}) {
		t.Errorf("explain: %v", got)
	}
	if got := order(PhaseWrite); !slices.Equal(got, []string{"writeStage"}) {
		t.Errorf("write: %v", got)
	}
	// Every observer declares its phases in run order, and none joins the
	// phases before the step (connect, setup, seed: once per command).
	for _, ob := range pl.observers {
		ps := ob.phases()
		if !slices.IsSorted(ps) || slices.ContainsFunc(ps, func(p Phase) bool { return p < PhaseContext }) {
			t.Errorf("%s declares %v", name(ob), ps)
		}
	}
}

// TestPhaseOrderIsTheDocs: docs/architecture.md names the phases in the
// order runPhases has them.
func TestPhaseOrderIsTheDocs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	const intro = "lists a run's phases in order:"
	_, rest, ok := strings.Cut(strings.Join(strings.Fields(string(doc)), " "), intro)
	if !ok {
		t.Fatalf("docs/architecture.md no longer says %q", intro)
	}
	list, _, _ := strings.Cut(rest, ".")
	var named []string
	for _, n := range strings.Split(list, ",") {
		named = append(named, strings.TrimSpace(n))
	}
	var want []string
	for _, p := range runPhases {
		want = append(want, p.String())
	}
	if !slices.Equal(named, want) {
		t.Errorf("the document lists %v, the pipeline runs %v", named, want)
	}
}
