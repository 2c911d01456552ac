package cli

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestReadmePaymentsVerdictIsTheTable runs the README's payments SLA
// battery as written, at small scale, and checks that each run's verdict
// measures transactions: its throughput is the transactions counted in the
// run's own rows (the rows of type "transaction", added here) over the
// measured time, and its p99 that of their histograms added here, never
// the steps'. Before, steps counted as operations: the verdict said about
// five times the transactions' rate.
func TestReadmePaymentsVerdictIsTheTable(t *testing.T) {
	uri, _ := testserver.Own(t) // the preset's database is fixed: a server of its own
	out := filepath.Join(t.TempDir(), "r.json")
	// README: mongoload run payments --slo "p99<=20ms,throughput>=5000" --repeat 5 --cooldown 30s
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", "payments", "--slo", "p99<=20ms,throughput>=5000", "--repeat", "2", "--cooldown", "1s",
		"--uri", uri, "--seed-scale", "0.0002", "--sessions", "20", "--think-time", "20ms", "--duration", "2s", "--warmup", "300ms", "--quiet", "--out", out)
	if code != ExitSLA && code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	tputRe := regexp.MustCompile(`throughput>=5000\s+measured ([0-9.]+) ops/s`)
	p99Re := regexp.MustCompile(`p99<=20ms\s+measured ([0-9.]+)ms`)
	tputs, p99s := tputRe.FindAllStringSubmatch(stdout, -1), p99Re.FindAllStringSubmatch(stdout, -1)
	if len(tputs) != 2 || len(p99s) != 2 {
		t.Fatalf("want 2 runs' verdicts:\n%s", stdout)
	}
	for i := range 2 {
		res, err := results.ReadJSON(filepath.Join(filepath.Dir(out), fmt.Sprintf("r-run%d.json", i+1)))
		if err != nil {
			t.Fatal(err)
		}
		var txns int64
		var h *hdrhistogram.Histogram
		steps := 0
		for j := range res.Operations {
			op := &res.Operations[j]
			if op.Type != "transaction" {
				steps++
				continue
			}
			txns += op.Count
			oh, err := op.LatencyHistogram()
			if err != nil {
				t.Fatal(err)
			}
			if h == nil {
				h = oh
			} else {
				h.Merge(oh)
			}
		}
		if txns == 0 || steps == 0 || h == nil {
			t.Fatalf("run %d: %d transactions, %d step rows", i+1, txns, steps)
		}
		want := float64(txns) / res.DurationSeconds
		got, _ := strconv.ParseFloat(tputs[i][1], 64)
		if math.Abs(got-want) > 0.05+0.001*want {
			t.Errorf("run %d: the verdict measured %.1f ops/s; the transactions were %.1f/s (%d in %.3fs)", i+1, got, want, txns, res.DurationSeconds)
		}
		wantP99 := float64(h.ValueAtQuantile(99)) / 1000
		gotP99, _ := strconv.ParseFloat(p99s[i][1], 64)
		if math.Abs(gotP99-wantP99) > 0.0011 {
			t.Errorf("run %d: the verdict's p99 %.3fms, the transactions' %.3fms", i+1, gotP99, wantP99)
		}
	}
}
