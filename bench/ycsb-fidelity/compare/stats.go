package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// row is one line of the fidelity table.
type row struct {
	property, ycsb, mongoload, tolerance, verdict string
	fail                                          bool
}

// verdict makes a row's verdict from whether it passed; what explains it
// follows the verdict.
func verdict(ok bool, format string, args ...any) (string, bool) {
	v := "pass"
	if !ok {
		v = "FAIL"
	}
	if detail := fmt.Sprintf(format, args...); detail != "" {
		v += ": " + detail
	}
	return v, !ok
}

// total is the number of draws in a histogram.
func total(h map[string]int64) int64 {
	var n int64
	for _, c := range h {
		n += c
	}
	return n
}

// numericKeys returns the histogram's values sorted as numbers (as
// strings when they are not).
func numericKeys(a, b map[string]int64) []string {
	seen := map[string]bool{}
	var ks []string
	for _, h := range []map[string]int64{a, b} {
		for k := range h {
			if !seen[k] {
				seen[k] = true
				ks = append(ks, k)
			}
		}
	}
	slices.SortFunc(ks, func(x, y string) int {
		xi, ex := strconv.ParseInt(x, 10, 64)
		yi, ey := strconv.ParseInt(y, 10, 64)
		if ex == nil && ey == nil {
			return int(max(-1, min(1, xi-yi)))
		}
		return strings.Compare(x, y)
	})
	return ks
}

// twoSampleChi2 tests whether two histograms come from the same
// distribution: the chi-square test of homogeneity, over bins of adjacent
// values merged until each holds at least 20 draws of both samples
// together. It returns the statistic, the degrees of freedom and the
// p-value (Wilson–Hilferty: within 1% of the exact tail from 10 degrees
// of freedom on).
func twoSampleChi2(a, b map[string]int64) (chi2 float64, df int, p float64) {
	na, nb := float64(total(a)), float64(total(b))
	ka, kb := math.Sqrt(nb/na), math.Sqrt(na/nb)
	var binA, binB float64
	bins := 0
	flush := func() {
		chi2 += (ka*binA - kb*binB) * (ka*binA - kb*binB) / (binA + binB)
		bins++
		binA, binB = 0, 0
	}
	for _, k := range numericKeys(a, b) {
		binA += float64(a[k])
		binB += float64(b[k])
		if binA+binB >= 20 {
			flush()
		}
	}
	if binA+binB > 0 {
		flush()
	}
	df = bins - 1
	if df < 1 {
		return chi2, df, 1
	}
	k := float64(df)
	z := (math.Cbrt(chi2/k) - (1 - 2/(9*k))) / math.Sqrt(2/(9*k))
	return chi2, df, 0.5 * math.Erfc(z/math.Sqrt2)
}

// pMin is the level of the two-sample tests: a p-value below it rejects
// "the same distribution". With some 30 tests per run, a correct
// implementation fails one by chance in about 30 runs.
const pMin = 0.001

// chi2Row is the two-sample test's row.
func chi2Row(label string, y, m map[string]int64) row {
	chi2, df, p := twoSampleChi2(y, m)
	v, fail := verdict(p >= pMin, "p = %.3g", p)
	return row{label + ": two-sample χ²", fmt.Sprintf("%d draws", total(y)),
		fmt.Sprintf("%d draws, χ² = %.0f, %d df", total(m), chi2, df), fmt.Sprintf("p ≥ %g", pMin), v, fail}
}

// share is the fraction of a histogram's draws whose value satisfies in.
func share(h map[string]int64, in func(int64) bool) float64 {
	var n int64
	for k, c := range h {
		if v, err := strconv.ParseInt(k, 10, 64); err == nil && in(v) {
			n += c
		}
	}
	return float64(n) / float64(total(h))
}

// shareTolerance is five standard errors of the difference of two shares
// near p, over na and nb draws.
func shareTolerance(p float64, na, nb int64) float64 {
	return 5 * math.Sqrt(p*(1-p)*(1/float64(na)+1/float64(nb)))
}

// summary is a key distribution's headline figures.
type summary func(label string, y, m map[string]int64) row

// topK is the share of the draws on the 1, 10, 100 and 1,000 most drawn
// values.
func topK(label string, y, m map[string]int64) row {
	ks := []int{1, 10, 100, 1000}
	top := func(h map[string]int64) []float64 {
		var cs []int64
		for _, c := range h {
			cs = append(cs, c)
		}
		slices.SortFunc(cs, func(a, b int64) int { return int(max(-1, min(1, b-a))) })
		out := make([]float64, len(ks))
		for j, k := range ks {
			for _, c := range cs[:min(k, len(cs))] {
				out[j] += float64(c)
			}
			out[j] /= float64(total(h))
		}
		return out
	}
	ty, tm := top(y), top(m)
	ok, worst := true, 0.0
	for j := range ks {
		tol := shareTolerance(ty[j], total(y), total(m))
		worst = max(worst, tol)
		ok = ok && math.Abs(ty[j]-tm[j]) <= tol
	}
	pct := func(s []float64) string {
		parts := make([]string, len(s))
		for i, x := range s {
			parts[i] = strconv.FormatFloat(100*x, 'f', 2, 64)
		}
		return strings.Join(parts, " / ") + " %"
	}
	v, fail := verdict(ok, "")
	return row{label + ": top 1 / 10 / 100 / 1000 keys' share", pct(ty), pct(tm),
		fmt.Sprintf("±5σ each (≤ %.2f pts)", 100*worst), v, fail}
}

// shareBelow is the share of the draws on values below n.
func shareBelow(n int64, what string) summary {
	return shareOf(what, func(v int64) bool { return v < n })
}

// shareAtLeast is the share of the draws on values at or above n.
func shareAtLeast(n int64, what string) summary {
	return shareOf(what, func(v int64) bool { return v >= n })
}

func shareOf(what string, in func(int64) bool) summary {
	return func(label string, y, m map[string]int64) row {
		sy, sm := share(y, in), share(m, in)
		tol := shareTolerance(sy, total(y), total(m))
		v, fail := verdict(math.Abs(sy-sm) <= tol, "")
		return row{label + ": " + what, fmt.Sprintf("%.2f %%", 100*sy), fmt.Sprintf("%.2f %%", 100*sm),
			fmt.Sprintf("±5σ (%.2f pts)", 100*tol), v, fail}
	}
}

// compareKeys compares key distributions by their headline figures and
// the two-sample test.
func compareKeys(s summary) func(c *fidelityCase, y, m *drawn) []row {
	return func(c *fidelityCase, y, m *drawn) []row {
		return []row{s(c.label, y.hist, m.hist), chi2Row(c.label, y.hist, m.hist)}
	}
}

// meanVar is a histogram's mean and variance.
func meanVar(h map[string]int64) (mean, variance float64) {
	n := float64(total(h))
	for k, c := range h {
		v, _ := strconv.ParseFloat(k, 64)
		mean += v * float64(c) / n
	}
	for k, c := range h {
		v, _ := strconv.ParseFloat(k, 64)
		variance += (v - mean) * (v - mean) * float64(c) / n
	}
	return mean, variance
}

// compareLengths compares length distributions by their means and the
// two-sample test.
func compareLengths(c *fidelityCase, y, m *drawn) []row {
	my, vy := meanVar(y.hist)
	mm, vm := meanVar(m.hist)
	tol := 5 * math.Sqrt(vy/float64(total(y.hist))+vm/float64(total(m.hist)))
	v, fail := verdict(math.Abs(my-mm) <= tol, "")
	rows := []row{{c.label + ": mean", fmt.Sprintf("%.3f", my), fmt.Sprintf("%.3f", mm), fmt.Sprintf("±5σ (%.3f)", tol), v, fail}}
	return append(rows, chi2Row(c.label, y.hist, m.hist))
}

// compareSequence compares two sequences value by value.
func compareSequence(c *fidelityCase, y, m *drawn) []row {
	same := 0
	first := -1
	for i := range min(len(y.seq), len(m.seq)) {
		if y.seq[i] == m.seq[i] {
			same++
		} else if first < 0 {
			first = i
		}
	}
	ok := same == len(y.seq) && len(y.seq) == len(m.seq)
	detail := ""
	if !ok && first >= 0 {
		detail = fmt.Sprintf("first difference at %d: %s vs %s", first, y.seq[first], m.seq[first])
	}
	v, fail := verdict(ok, "%s", detail)
	show := func(s []string) string {
		if len(s) < 3 {
			return strings.Join(s, ", ")
		}
		return fmt.Sprintf("%d values: %s, %s, …, %s", len(s), s[0], s[1], s[len(s)-1])
	}
	return []row{{c.label, show(y.seq), fmt.Sprintf("%d of %d identical", same, len(y.seq)), "identical", v, fail}}
}

// compareOperations compares an operation mix, operation by operation.
func compareOperations(c *fidelityCase, y, m *drawn) []row {
	names := numericKeys(y.hist, m.hist)
	var sy, sm []string
	ok, worst := true, 0.0
	for _, n := range names {
		py := float64(y.hist[n]) / float64(total(y.hist))
		pm := float64(m.hist[n]) / float64(total(m.hist))
		tol := shareTolerance(py, total(y.hist), total(m.hist))
		worst = max(worst, tol)
		ok = ok && math.Abs(py-pm) <= tol && y.hist[n] > 0 && m.hist[n] > 0
		sy = append(sy, fmt.Sprintf("%s %.2f", n, 100*py))
		sm = append(sm, fmt.Sprintf("%s %.2f", n, 100*pm))
	}
	v, fail := verdict(ok, "")
	return []row{{c.label + " (%)", strings.Join(sy, ", "), strings.Join(sm, ", "), fmt.Sprintf("±5σ each (≤ %.2f pts)", 100*worst), v, fail}}
}

// compareRecords compares a record's BSON size (exact: same fields, same
// lengths), its zlib-compressed size (within 2%) and the share of
// printable bytes in its values (YCSB's are all printable).
func compareRecords(c *fidelityCase, y, m *drawn) []row {
	var rows []row
	bs, bm := y.nums[c.name+".bson"], m.nums[c.name+".bson"]
	v, fail := verdict(bs == bm, "")
	rows = append(rows, row{c.label + ": BSON bytes per record", fmt.Sprintf("%.1f", bs), fmt.Sprintf("%.1f", bm), "equal", v, fail})
	zs, zm := y.nums[c.name+".zlib"], m.nums[c.name+".zlib"]
	v, fail = verdict(math.Abs(zs-zm) <= 0.02*zs, "")
	rows = append(rows, row{c.label + ": zlib-compressed bytes per record", fmt.Sprintf("%.1f (%.1f %%)", zs, 100*zs/bs),
		fmt.Sprintf("%.1f (%.1f %%)", zm, 100*zm/bm), "±2 %", v, fail})
	ps, pm := y.nums[c.name+".printable"], m.nums[c.name+".printable"]
	v, fail = verdict(ps == pm, "")
	rows = append(rows, row{c.label + ": value bytes in 32-127", fmt.Sprintf("%.2f %%", 100*ps), fmt.Sprintf("%.2f %%", 100*pm), "equal", v, fail})
	return rows
}

// compareLatest compares latest's draws, then YCSB's with a model of YCSB
// that has its η quirk (latestEtaQuirk): the model row must pass, whatever
// the case's purpose says, for the explanation to hold.
func compareLatest(c *fidelityCase, y, m *drawn) []row {
	rows := compareKeys(topK)(c, y, m)
	model := ycsbLatestModel(c.draws, records, 0.05, 99)
	r := chi2Row("request latest: YCSB vs YCSB's η quirk modelled", y.hist, model)
	r.mongoload = "model: " + r.mongoload
	r.property += " (not mongoload: checks the explanation)"
	return append(rows, r)
}
