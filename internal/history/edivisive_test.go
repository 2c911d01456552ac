package history

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// knownSeries are series whose change points are known: steps put there
// in noise drawn with a fixed seed, and series with none.
func knownSeries() []struct {
	name string
	xs   []float64
	want []int // the change points' indexes: the first value after each
} {
	noise := func(seed uint64, n int, sd float64) []float64 {
		r := rand.New(rand.NewPCG(seed, 0))
		out := make([]float64, n)
		for i := range out {
			out[i] = 1 + sd*r.NormFloat64()
		}
		return out
	}
	scale := func(base float64, f []float64, steps map[int]float64) []float64 {
		out := make([]float64, len(f))
		level := base
		for i := range f {
			if s, ok := steps[i]; ok {
				level *= s
			}
			out[i] = level * f[i]
		}
		return out
	}
	// The acceptance check's build series: 15% down at build 16 in its
	// fixed jitter of up to 1%, and its flat series at 2%.
	j := []float64{0.4, -0.7, 0.9, -0.2, 0.6, -0.9, 0.1, -0.5, 0.8, -0.3, 0.5, -0.8, 0.3, -0.1, 0.7, -0.6, 0.2, -0.4, 1.0, -1.0}
	var builds, flat []float64
	for i := 1; i <= 24; i++ {
		f := 1.0
		if i >= 16 {
			f = 0.85
		}
		builds = append(builds, 2000*f*(1+j[(i-1)%20]/100))
	}
	for i := 1; i <= 20; i++ {
		flat = append(flat, 2000*(1+2*j[(i-1)%20]/100))
	}
	outlier := scale(1000, noise(3, 30, 0.01), nil)
	outlier[14] *= 1.5
	lastLow := append(scale(1000, noise(5, 20, 0.01), nil), 700) // last night's run, 30% down: one run, not yet a change
	return []struct {
		name string
		xs   []float64
		want []int
	}{
		{"builds: 15% down at build-16", builds, []int{15}},
		{"flat, 2% jitter", flat, nil},
		{"5% step in 1% noise", scale(1000, noise(1, 30, 0.01), map[int]float64{15: 1.05}), []int{15}},
		{"two steps", scale(1000, noise(2, 45, 0.01), map[int]float64{15: 0.9, 30: 1.2}), []int{15, 30}},
		{"a single outlier", outlier, nil},
		{"a single low run, the latest", lastLow, nil},
	}
}

func splitsAt(s []Split) []int {
	var out []int
	for _, sp := range s {
		out = append(out, sp.Index)
	}
	return out
}

// TestChangePointsFindTheKnownSteps: each step where it was put, nothing
// in flat noise, and a single outlier does not count.
func TestChangePointsFindTheKnownSteps(t *testing.T) {
	for _, tt := range knownSeries() {
		got := DefaultMethod.ChangePoints(tt.xs, 1)
		if !slices.Equal(splitsAt(got), tt.want) {
			t.Errorf("%s: change points at %v, want %v (%+v)", tt.name, splitsAt(got), tt.want, got)
		}
		for _, sp := range got {
			if sp.PValue > DefaultMethod.PValue || sp.PValue < 1/float64(DefaultMethod.Permutations+1) {
				t.Errorf("%s: p-value %g outside [1/(R+1), %g]", tt.name, sp.PValue, DefaultMethod.PValue)
			}
		}
	}
}

// TestFalseChangePointsAreRare: in flat noise the test names a change
// point about as often as its significance level says (5%), never much
// more; and what it names there is small, far from a 5% regression.
func TestFalseChangePointsAreRare(t *testing.T) {
	const runs = 200
	named := 0
	for seed := range uint64(runs) {
		r := rand.New(rand.NewPCG(seed, 1))
		xs := make([]float64, 30)
		for i := range xs {
			xs[i] = 1000 * (1 + 0.01*r.NormFloat64())
		}
		if cps := DefaultMethod.ChangePoints(xs, seed); len(cps) > 0 {
			named++
			for _, cp := range cps {
				before, after := mean(xs[:cp.Index]), mean(xs[cp.Index:])
				if d := (after - before) / before; d > 0.02 || d < -0.02 {
					t.Errorf("seed %d: a false change point of %.1f%% in 1%% noise", seed, 100*d)
				}
			}
		}
	}
	if rate := float64(named) / runs; rate > 0.1 {
		t.Errorf("change points named in %d of %d flat series (%.0f%%), want about 5%%", named, runs, 100*rate)
	}
	t.Logf("change points named in %d of %d flat series", named, runs)
}

// TestChangePointsAreReproducible: one seed, one answer.
func TestChangePointsAreReproducible(t *testing.T) {
	xs := knownSeries()[3].xs
	a, b := DefaultMethod.ChangePoints(xs, 9), DefaultMethod.ChangePoints(xs, 9)
	if !slices.Equal(a, b) {
		t.Errorf("the same series and seed gave %v then %v", a, b)
	}
	if got := DefaultMethod.ChangePoints([]float64{1, 2}, 1); got != nil {
		t.Errorf("two values: %v, want no change point", got)
	}
	if got := DefaultMethod.ChangePoints([]float64{5, 5, 5, 5, 5}, 1); got != nil {
		t.Errorf("a constant series: %v, want none", got)
	}
}

// oracle is a Python with Apache Otava and signal-processing-algorithms
// (MongoDB's), installed from PyPI once into the user's cache; the test
// skips only when PyPI cannot be reached.
func oracle(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 to install the oracles (apache-otava, signal-processing-algorithms) into")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	venv := filepath.Join(cache, "mongoload", "history-oracle")
	py := filepath.Join(venv, "bin", "python")
	if exec.Command(py, "-c", "import otava, signal_processing_algorithms.energy_statistics.energy_statistics").Run() == nil {
		return py
	}
	run := func(args ...string) {
		out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
		if err == nil {
			return
		}
		text := string(out)
		for _, offline := range []string{"Could not find a version", "NewConnectionError", "Temporary failure in name resolution", "Network is unreachable", "No matching distribution"} {
			if strings.Contains(text, offline) {
				t.Skipf("PyPI cannot be reached to install the oracles: %s", lastLine(text))
			}
		}
		t.Fatalf("%s: %v: %s", strings.Join(args, " "), err, lastLine(text))
	}
	run("python3", "-m", "venv", venv)
	pip := filepath.Join(venv, "bin", "pip")
	run(pip, "install", "-q", "apache-otava", "more-itertools", "structlog")
	// signal-processing-algorithms pins an old gevent that does not build
	// on current Pythons; its e_divisive needs only numpy, more-itertools
	// and structlog.
	run(pip, "install", "-q", "--no-deps", "signal-processing-algorithms")
	return py
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

const oracleScript = `
import json, sys
import numpy as np
from otava.change_point_divisive.calculator import PairDistanceCalculator
from otava.change_point_divisive.detector import ChangePointDetector
from otava.change_point_divisive.significance_test import PermutationsSignificanceTester
from signal_processing_algorithms.energy_statistics.energy_statistics import e_divisive
class Tolerant(PermutationsSignificanceTester):
    # Otava counts a permuted q-hat one ulp below the observed one as
    # weaker: a lone outlier moved from one end to the other gives the same
    # q-hat summed in another order. Count it, as mongoload does.
    def change_point(self, candidate, series, intervals):
        cp = super().change_point(candidate, series, intervals)
        cp.stats.pvalue = float(np.sum(cp.stats.permuted_qhats >= candidate.qhat * (1 - 1e-9))) / (self.permutations + 1)
        return cp
out = []
for xs in json.load(open(sys.argv[1])):
    # compute_change_points_orig, with 999 permutations instead of its 100:
    # a p-value near the level needs them to fall on the right side of it.
    tester = Tolerant(max_pvalue=0.05, permutations=999, calculator=PairDistanceCalculator, seed=1)
    otava = ChangePointDetector(significance_tester=tester, calculator=PairDistanceCalculator).get_change_points(xs)
    np.random.seed(1)
    spa = e_divisive(xs, pvalue=0.05, permutations=199)
    out.append({"otava": sorted(int(c.index) for c in otava), "otavaQ": [float(c.qhat) for c in sorted(otava, key=lambda c: c.index)], "spa": sorted(int(i) for i in spa)})
print(json.dumps(out))
`

// TestChangePointsAgreeWithOracles: Apache Otava's implementation of the
// same method (Matteson and James with its permutation test) and
// MongoDB's signal-processing-algorithms find the same change points on
// the same numbers, and Otava the same q̂ for each.
func TestChangePointsAgreeWithOracles(t *testing.T) {
	if testing.Short() {
		t.Skip("installs the oracles from PyPI")
	}
	py := oracle(t)
	series := knownSeries()
	var all [][]float64
	for _, s := range series {
		all = append(all, s.xs)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "series.json")
	b, _ := json.Marshal(all)
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "oracle.py")
	if err := os.WriteFile(script, []byte(oracleScript), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, script, in).Output()
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	var found []struct {
		Otava  []int     `json:"otava"`
		OtavaQ []float64 `json:"otavaQ"`
		SPA    []int     `json:"spa"`
	}
	if err := json.Unmarshal(out, &found); err != nil {
		t.Fatalf("oracle's answer %q: %v", out, err)
	}
	for i, s := range series {
		got := DefaultMethod.ChangePoints(s.xs, 1)
		if !slices.Equal(splitsAt(got), found[i].Otava) {
			t.Errorf("%s: mongoload %v, Apache Otava %v", s.name, splitsAt(got), found[i].Otava)
		} else {
			for k, sp := range got {
				if q := found[i].OtavaQ[k]; sp.QHat < q*(1-1e-9) || sp.QHat > q*(1+1e-9) {
					t.Errorf("%s: change point %d: q̂ %g, Otava's %g", s.name, sp.Index, sp.QHat, q)
				}
			}
		}
		if !slices.Equal(splitsAt(got), found[i].SPA) {
			t.Errorf("%s: mongoload %v, signal-processing-algorithms %v", s.name, splitsAt(got), found[i].SPA)
		}
	}
}
