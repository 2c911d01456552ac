package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

// TestHistoryReadsCSV (issue 49): the CSV `history --format csv` writes
// is a store history reads: the same change points and p-values as the
// store it came from, the same gate; it is never written, and --history
// refuses it before a run.
func TestHistoryReadsCSV(t *testing.T) {
	ctx := context.Background()
	store := nightly(t, 20, 12)
	_, csv, _ := runCLI(t, ctx, nil, "history", store, "--format", "csv")
	file := filepath.Join(t.TempDir(), "nightly.csv")
	if err := os.WriteFile(file, []byte(csv), 0o444); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(file)
	var fromStore, fromCSV results.History
	_, a, _ := runCLI(t, ctx, nil, "history", store, "--format", "json")
	code, b, errs := runCLI(t, ctx, nil, "history", file, "--format", "json")
	if code != 0 || json.Unmarshal([]byte(a), &fromStore) != nil || json.Unmarshal([]byte(b), &fromCSV) != nil {
		t.Fatalf("history %s: exit %d, %.300s%s", file, code, b, errs)
	}
	changes := func(h results.History) (out []results.ChangePoint) {
		for _, w := range h.Workloads {
			for _, s := range w.Series {
				if s.Metric == "throughput" {
					out = append(out, s.ChangePoints...)
				}
			}
		}
		return out
	}
	got, want := changes(fromCSV), changes(fromStore)
	if len(got) != 1 || len(want) != 1 || got[0].Run != want[0].Run || got[0].Label != "build-12" || got[0].PValue != want[0].PValue || !got[0].Regression {
		t.Errorf("the CSV's throughput change points %+v, the store's %+v", got, want)
	}
	if code, _, errs := runCLI(t, ctx, nil, "history", file, "--fail-on-regression"); code != ExitRegression || !strings.Contains(errs, "nightly throughput") {
		t.Errorf("--fail-on-regression on the CSV: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, ctx, nil, "run", "ycsb-b", "--target", "noop", "--duration", "100ms", "--warmup", "0s", "--quiet", "--history", file); code != ExitOutput || !strings.Contains(errs, "read-only") {
		t.Errorf("run --history FILE.csv: exit %d, %s; want %d before the run", code, errs, ExitOutput)
	}
	after, _ := os.ReadFile(file)
	if st2, _ := os.Stat(file); !bytes.Equal(after, []byte(csv)) || !st2.ModTime().Equal(st.ModTime()) {
		t.Errorf("the CSV was written to")
	}
}

// TestHistoryRefusesBadCSV: a CSV cut short, with a cell that is not a
// number or not finite, or without a column it needs, is refused in one
// line naming the file, the line and the column.
func TestHistoryRefusesBadCSV(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good := "time,label,throughput\n2026-01-01T02:00:00Z,b1,100\n2026-01-02T02:00:00Z,b2,101\n2026-01-03T02:00:00Z,b3,99\n"
	for _, tt := range []struct {
		name, text string
		code       int
		want       string
	}{
		{"cut.csv", good[:len(good)-20], ExitSyntax, "cut.csv:4: column 2 (label): missing: the row has 1 of the 3 columns"},
		{"quote.csv", good + "2026-01-04T02:00:00Z,\"b4,98\n", ExitSyntax, "quote.csv:5: column "},
		{"word.csv", strings.Replace(good, ",101", ",1o1", 1), ExitSyntax, `word.csv:3: column 3 (throughput): "1o1" is not a number`},
		{"nan.csv", strings.Replace(good, ",101", ",NaN", 1), ExitInvalid, `nan.csv:3: column 3 (throughput): "NaN" is not finite`},
		{"inf.csv", strings.Replace(good, ",101", ",1e999", 1), ExitInvalid, `inf.csv:3: column 3 (throughput): "1e999" is not finite`},
		{"notime.csv", strings.ReplaceAll(good, "2026-01-0", "x"), ExitSyntax, `notime.csv:2: column 1 (time): "x1T02:00:00Z" is not a time`},
		{"nocol.csv", "label,throughput\nb1,100\n", ExitSyntax, "nocol.csv:1: no time column"},
		{"nometric.csv", "time,label\n2026-01-01,b1\n", ExitSyntax, "nometric.csv:1: no metric column"},
		{"twice.csv", "time,label,throughput,throughput\n", ExitSyntax, "twice.csv:1: column 4 (throughput) is named twice"},
		{"empty.csv", "", ExitNothing, "empty.csv is empty"},
		{"missing.csv", "", ExitUnreadable, "missing.csv does not exist"},
	} {
		file := filepath.Join(dir, tt.name)
		if tt.name != "missing.csv" {
			os.WriteFile(file, []byte(tt.text), 0o644)
		}
		code, _, errs := runCLI(t, ctx, nil, "history", file)
		if code != tt.code || !strings.Contains(errs, tt.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("history %s: exit %d, %q; want %d and one line with %q", tt.name, code, errs, tt.code, tt.want)
		}
	}
}

// TestHistoryNearTheLargestFloat (issue 46): a drop from 1.7e308 to 0 is
// a change point of -100% and a regression (the sums had overflowed to
// "no change point"), written as a number a person reads.
func TestHistoryNearTheLargestFloat(t *testing.T) {
	var b strings.Builder
	b.WriteString("time,label,throughput\n")
	for i := 1; i <= 12; i++ {
		v := "1.7e308"
		if i > 6 {
			v = "0"
		}
		fmt.Fprintf(&b, "2026-01-%02d,b%d,%s\n", i, i, v)
	}
	file := filepath.Join(t.TempDir(), "big.csv")
	os.WriteFile(file, []byte(b.String()), 0o644)
	code, out, errs := runCLI(t, context.Background(), nil, "history", file, "--fail-on-regression")
	if code != ExitRegression || !strings.Contains(out, "at b7: -100.0% (1.7e+308 → 0 ops/s)") {
		t.Errorf("a drop from 1.7e308 to 0: exit %d, %s%s", code, out, errs)
	}
}
