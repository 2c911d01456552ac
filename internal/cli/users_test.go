package cli

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// usersInputs writes two results files: small at 1,000 ops/s for 800 EUR
// and big at 2,500 ops/s for 1,200 EUR.
func usersInputs(t *testing.T, currencyBig string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for _, in := range []struct {
		label      string
		throughput float64
		cost       float64
		currency   string
	}{{"small", 1000, 800, "EUR"}, {"big", 2500, 1200, currencyBig}} {
		res := resultstest.Result(results.LoadModel{Type: results.Closed, Concurrency: 8}, resultstest.Step{Level: 8, Throughput: in.throughput, LatencyMs: 2}, resultstest.T0, in.label)
		res.Cost = &results.Cost{Monthly: in.cost, Currency: in.currency}
		p := filepath.Join(dir, in.label+".json")
		if err := results.WriteJSON(p, res); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths[0], paths[1]
}

// TestCompareUsers: the users and cost rows in compare.csv, and the stage
// table, by arithmetic: big carries 25,000 x 2,500/1,000 = 62,500 users at
// 1,200/62.5 = 19.2 EUR per 1,000 users a month.
func TestCompareUsers(t *testing.T) {
	a, b := usersInputs(t, "EUR")
	csvDir := filepath.Join(t.TempDir(), "csv")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "compare", a, b, "--users", "25000", "--growth", "50000,60000", "--headroom", "20%", "--csv", csvDir)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	f, err := os.Open(filepath.Join(csvDir, "compare.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]float64{"users": {25000, 62500}, "cost-per-1000-users": {800 / 25.0, 1200 / 62.5}}
	for _, r := range rows[1:] {
		w, ok := want[r[1]]
		if !ok {
			continue
		}
		delete(want, r[1])
		for i, v := range w {
			got, err := strconv.ParseFloat(r[3+i], 64)
			if err != nil || math.Abs(got-v) > 0.001 {
				t.Errorf("%s %s: %q, want %g", r[1], rows[0][3+i], r[3+i], v)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("compare.csv lacks %v", want)
	}
	// 25,000 with 20% headroom needs 30,000: big; 50,000 needs 60,000: big
	// (62,500); 60,000 needs 72,000: none.
	for _, line := range []string{`\n25,000 +big +62,500 +1,200 +48`, `\n50,000 +big +62,500 +1,200 +24`, `\n60,000 +none`, `no input carries 60,000 users with 20% headroom \(72,000 needed\)`} {
		if !regexp.MustCompile(line).MatchString(stdout) {
			t.Errorf("the stage table lacks %q:\n%s", line, stdout)
		}
	}
}

// TestCompareUsersRefusals: options that do not go together are one line
// and exit 2; a value out of its range (issue 30: --users 1e308 printed a
// negative user count) is a line per value, exit 12, naming the flag.
func TestCompareUsersRefusals(t *testing.T) {
	a, b := usersInputs(t, "EUR")
	_, usd := usersInputs(t, "USD")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{a, b, "--growth", "50000"}, "--growth needs --users"},
		{[]string{a, b, "--users", "25000", "--growth", "20000"}, "must be above the 25,000 users"},
		{[]string{a, usd, "--users", "25000"}, "costs in mixed currencies"},
	} {
		code, _, stderr := runCLI(t, context.Background(), nil, append([]string{"compare"}, tt.args...)...)
		if code != ExitUsage || !strings.Contains(stderr, tt.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", tt.args, code, stderr, tt.want)
		}
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"--users", "25000", "--headroom", "lots"}, []string{`--headroom: "lots" is not a number`}},
		{[]string{"--users", "1e308", "--growth", "1.7e308"}, []string{`--users: "1e308": 1e+308 is out of range`, `--growth: "1.7e308": 1.7e+308 is out of range`}},
		{[]string{"--users", "NaN"}, []string{`--users: "NaN": NaN is not a number`}},
		{[]string{"--users", "-Inf"}, []string{`--users: "-Inf": -Inf is not finite`}},
		{[]string{"--users", "-1"}, []string{`--users: "-1": -1 is out of range`}},
		{[]string{"--users", "25000", "--growth", "50000,Inf,0", "--headroom", "1001%"}, []string{`--growth: "Inf": +Inf is not finite`, `--growth: "0": 0 is out of range`, `--headroom: "1001%": 10.01 is out of range`}},
	} {
		code, _, stderr := runCLI(t, context.Background(), nil, append([]string{"compare", a, b}, tt.args...)...)
		lines := strings.Split(strings.TrimSpace(strings.TrimPrefix(stderr, "mongoload: ")), "\n")
		if code != ExitInvalid || len(lines) != len(tt.want) {
			t.Errorf("%v: exit %d, %q; want exit 12 and %d lines", tt.args, code, stderr, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("%v: line %d %q, want %q", tt.args, i+1, lines[i], w)
			}
		}
	}
}
