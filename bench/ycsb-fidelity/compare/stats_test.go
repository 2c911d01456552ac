package main

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestTwoSampleChi2 checks the homogeneity test against figures computed
// by hand: identical samples give χ² = 0; the 2×2 table (30, 70) vs
// (70, 30) gives Σ (a−b)²/(a+b) = 2 · 40²/100 = 32 over 1 degree of
// freedom; and samples of the same law drawn independently pass while a
// shifted one fails.
func TestTwoSampleChi2(t *testing.T) {
	a := map[string]int64{"0": 30, "1": 70}
	if chi2, df, p := twoSampleChi2(a, a); chi2 != 0 || df != 1 || p < 0.5 {
		t.Errorf("identical samples: χ² %g, %d df, p %g", chi2, df, p)
	}
	if chi2, df, _ := twoSampleChi2(a, map[string]int64{"0": 70, "1": 30}); math.Abs(chi2-32) > 1e-9 || df != 1 {
		t.Errorf("χ² %g over %d df, want 32 over 1", chi2, df)
	}
	hist := func(seed uint64, shift int) map[string]int64 {
		h := map[string]int64{}
		x := seed
		for range 200_000 {
			x = x*6364136223846793005 + 1442695040888963407
			h[strconv.Itoa(int(x>>33)%100+shift)]++
		}
		return h
	}
	if _, _, p := twoSampleChi2(hist(1, 0), hist(2, 0)); p < pMin {
		t.Errorf("two uniform samples rejected: p %g", p)
	}
	if _, _, p := twoSampleChi2(hist(1, 0), hist(2, 1)); p >= pMin {
		t.Errorf("a shifted sample accepted: p %g", p)
	}
}

// TestDocsTableCurrent checks that docs/ycsb.md carries the table make
// ycsb-fidelity writes, for every case checked today: a case added or
// renamed without rerunning it leaves the docs behind.
func TestDocsTableCurrent(t *testing.T) {
	data, err := os.ReadFile("../../../docs/ycsb.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, beginMarker), strings.Index(s, endMarker)
	if i < 0 || j < i {
		t.Fatal("docs/ycsb.md has no fidelity table markers")
	}
	table := s[i:j]
	for _, c := range cases() {
		if !strings.Contains(table, "| "+c.label) {
			t.Errorf("docs/ycsb.md's fidelity table has no row for %q: run make ycsb-fidelity", c.label)
		}
	}
}
