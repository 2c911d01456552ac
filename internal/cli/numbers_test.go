package cli

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/config"
)

// numericFlagRange is the declared range of a numeric flag: a setting's
// (config.Settings) or a command's own (flagRanges).
func numericFlagRange(flag string) (config.Range, bool) {
	for _, s := range config.Settings {
		if s.Flag == flag && s.Range != nil {
			return *s.Range, true
		}
	}
	r, ok := flagRanges[flag]
	return r, ok
}

// badNumbers are the values r refuses: NaN, the infinities, huge ones,
// just past each edge, and a fraction where r is whole.
func badNumbers(r config.Range) []string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	out := []string{"NaN", "Inf", "-Inf", "+Infinity", "1e300", "-1e300"}
	switch {
	case r.AboveMin:
		out = append(out, f(r.Min)) // the lower edge, excluded
	case r.Whole:
		out = append(out, f(r.Min-1))
	default:
		out = append(out, f(r.Min-math.Max(1e-6, math.Abs(r.Min)*1e-6)))
	}
	if r.Whole {
		out = append(out, f(r.Max+1), f(r.Min+1.5))
	} else {
		out = append(out, f(r.Max+math.Max(1e-6, r.Max*1e-6)))
	}
	return out
}

// commandArgs keep a command from doing anything else than checking its
// values should one be accepted by mistake: no server, nothing long.
var commandArgs = map[string][]string{
	"run":      {"--target", "noop", "--duration", "1ms", "--warmup", "0s", "--quiet"},
	"validate": {},
	"sweep":    {"--concurrency", "1,2", "--target", "noop", "--step-duration", "1ms", "--warmup", "0s"},
	"findmax":  {"--slo", "p99<=1s", "--target", "noop", "--step-duration", "1ms", "--warmup", "0s", "--start", "10"},
	"load":     {"--uri", "mongodb://127.0.0.1:1", "--server-selection-timeout", "100ms", "--documents", "1"},
	"capture":  {"--log", "/nonexistent/mongod.log"},
	"replay":   {"/nonexistent/app.trace", "--uri", "mongodb://127.0.0.1:1"},
}

// TestEveryNumericFlag is issue 30's table over every numeric flag of
// every command (read from its --help, so a flag added later is in it):
// NaN, ±Inf, huge values and each edge of its range just past are
// refused with exit 12 and one line per value naming the flag, never run
// ("--rate Inf" ran "open loop at -9,223,372,036,854,775,808 ops/s").
// A numeric flag with no declared range fails the test.
func TestEveryNumericFlag(t *testing.T) {
	numeric := regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z0-9-]+) (number|float|int|int64|uint|uint64)\s`)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	tried := 0
	for _, name := range names {
		_, help, _ := runCLI(t, context.Background(), nil, name, "--help")
		for _, m := range numeric.FindAllStringSubmatch(help, -1) {
			flag := m[1]
			r, ok := numericFlagRange(flag)
			if !ok {
				t.Errorf("%s --%s is numeric and declares no range: add it to flagRanges (internal/cli/numbers.go) or give its setting a Range", name, flag)
				continue
			}
			for _, v := range badNumbers(r) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				// the flag comes last: its value wins over commandArgs' (findmax --start)
				args := append(append([]string{name}, commandArgs[name]...), "--"+flag, v)
				code, out, errs := runCLI(t, ctx, nil, args...)
				cancel()
				tried++
				if code != ExitInvalid || !strings.Contains(errs, "--"+flag) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
					t.Errorf("%s: exit %d, want %d and one line naming --%s: %s%s", strings.Join(args, " "), code, ExitInvalid, flag, out, errs)
				}
			}
		}
	}
	t.Logf("%d values of numeric flags tried", tried)
	if tried < 100 {
		t.Fatalf("only %d values tried: the help's flag lines changed shape?", tried)
	}
}

// TestEveryNumericSettingEverywhere: a numeric setting given by its
// MONGOLOAD_ variable is held to the same range and named as the
// variable; its edges are accepted (validate touches no server).
func TestEveryNumericSettingEverywhere(t *testing.T) {
	for _, s := range config.Settings {
		if s.Range == nil {
			continue
		}
		for _, v := range badNumbers(*s.Range) {
			code, _, errs := runCLI(t, context.Background(), map[string]string{s.Env(): v}, "validate")
			if code != ExitInvalid || !strings.Contains(errs, s.Env()) {
				t.Errorf("%s=%s validate: exit %d, %q; want %d naming %s", s.Env(), v, code, errs, ExitInvalid, s.Env())
			}
		}
		edges := []float64{s.Range.Max}
		if !s.Range.AboveMin {
			edges = append(edges, s.Range.Min)
		}
		for _, e := range edges {
			v := strconv.FormatFloat(e, 'f', -1, 64)
			args := append([]string{"validate", "--" + s.Flag, v}, edgeCompanions[s.Flag]...)
			if code, _, errs := runCLI(t, context.Background(), nil, args...); code != ExitOK {
				t.Errorf("%s: the edge of its range is refused: exit %d, %s", strings.Join(args, " "), code, errs)
			}
		}
	}
}

// edgeCompanions are the other values a setting at an edge needs to make
// a valid whole (a rate scale needs a rate, and so on).
var edgeCompanions = map[string][]string{
	"rate-scale":  {"--rate", "0.001"},
	"pass-quorum": {"--repeat", "100000"},
	"sessions":    {"--think-time", "1s"},
	"seed-scale":  {"--seed", "1"},
}

// TestEveryNumericFileKey: the same rule for a workload file's keys
// (run.rate: .inf passed validate and lost the run's results file): the
// refusal names the file and the key.
func TestEveryNumericFileKey(t *testing.T) {
	dir := t.TempDir()
	keys := []string{"rate", "rateScale", "seedScale", "monthlyCost", "emptyThreshold", "concurrency", "operations",
		"seed", "seedBatchSize", "seedWorkers", "maxInFlight", "sessions", "repeat", "passQuorum", "explain"}
	for _, key := range keys {
		for _, v := range []string{".nan", ".inf", "-.inf", "1e300", "-1"} {
			p := filepath.Join(dir, key+".yaml")
			text := strings.Replace(minimal, "operations:", "run:\n  "+key+": "+v+"\noperations:", 1)
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errs := runCLI(t, context.Background(), nil, "validate", p)
			if code != ExitInvalid || !strings.Contains(errs, p) || !(strings.Contains(errs, "run."+key) || strings.Contains(errs, "wrong type")) {
				t.Errorf("run.%s: %s: validate exit %d, %q; want %d naming the file and the key", key, v, code, errs, ExitInvalid)
			}
		}
	}
	for _, tc := range []struct{ yaml, want string }{
		{"weight: .nan", "operations[0].weight: NaN is not a number"},
		{"weight: .inf", "operations[0].weight: +Inf is not finite"},
		{"batchSize: 100001", "operations[0].batchSize: 100001 is out of range"},
	} {
		text := strings.Replace(minimal, "weight: 1", strings.Replace("weight: 1\n    "+tc.yaml, "weight: 1\n    weight", "weight", 1), 1)
		p := filepath.Join(dir, "op.yaml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := runCLI(t, context.Background(), nil, "validate", p); code != ExitInvalid || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: validate exit %d, %q; want %d and %q", tc.yaml, code, errs, ExitInvalid, tc.want)
		}
	}
}
