package generate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/mongoload/mongoload/internal/config"
)

// defaultDistribution builds the distribution name with its default
// parameters.
func defaultDistribution(t testing.TB, name string) Distribution {
	t.Helper()
	p := &params{gen: "key", v: &config.Value{Kind: config.KindGen, Gen: "key"}, c: newCompiler(nil)}
	d := p.distribution(name)
	if d == nil || p.err != nil {
		t.Fatalf("distribution %q: %v", name, p.err)
	}
	return d
}

// chi2Critical is the 99.9th percentile of the chi-square distribution
// with df degrees of freedom, by the Wilson–Hilferty approximation (within
// 1% of the exact value from 10 degrees of freedom up). A statistic above
// it rejects the expected law at the 0.1% level: the tests below use fixed
// seeds, so they are deterministic, and a correct implementation passes
// with a wide margin.
func chi2Critical(df int) float64 {
	const z999 = 3.0902 // the standard normal's 99.9th percentile
	k := float64(df)
	c := 1 - 2/(9*k) + z999*math.Sqrt(2/(9*k))
	return k * c * c * c
}

// chiSquare compares counts with the probabilities want (which sum to 1)
// over draws, returning the statistic and the degrees of freedom.
func chiSquare(counts []int, want []float64, draws int) (float64, int) {
	var chi2 float64
	for i, p := range want {
		exp := p * float64(draws)
		d := float64(counts[i]) - exp
		chi2 += d * d / exp
	}
	return chi2, len(want) - 1
}

// gray is the probability that Gray's method draws rank i of n items, given
// ζ(n, θ): exact Zipf for ranks 0 and 1, beyond them the width of the band
// of u that maps to i.
func gray(i, n int64, zn float64) float64 {
	const theta = ZipfianConstant
	if i < 2 {
		return math.Pow(float64(i+1), -theta) / zn
	}
	z2 := 1 + math.Pow(2, -theta)
	eta := (1 - math.Pow(2/float64(n), 1-theta)) / (1 - z2/zn)
	u := func(i int64) float64 { return 1 + (math.Pow(float64(i)/float64(n), 1-theta)-1)/eta }
	return u(i+1) - u(i)
}

// scrambledLaw is the probability of each of items keys under YCSB's
// scrambled Zipfian: the first 2^20 ranks are hashed exactly; the rest of
// the mass (ranks 2^20 to 10^10, each below 4e-8) is spread evenly, which
// is what hashing does to it within the test's resolution.
func scrambledLaw(items int64) []float64 {
	want := make([]float64, items)
	rest := 1.0
	for r := int64(0); r < 1<<20; r++ {
		p := gray(r, scrambledSpace+1, ycsbZetan)
		want[FNVHash64(r)%items] += p
		rest -= p
	}
	for i := range want {
		want[i] += rest / float64(items)
	}
	return want
}

// TestDistributionLaws checks each distribution against its law with a
// chi-square test over every key (threshold: chi2Critical, the 0.1% level).
func TestDistributionLaws(t *testing.T) {
	const n, draws = 1000, 400_000
	uniform := make([]float64, n)
	hot := make([]float64, n)
	exponential := make([]float64, n)
	gamma := -math.Log(1-0.95) / (n * 0.8571428571)
	for i := range n {
		uniform[i] = 1.0 / n
		hot[i] = 0.2 / 800 // cold: 20% of the draws over the last 800 keys
		if i < 200 {
			hot[i] = 0.8 / 200 // hot: 80% over the first 200 keys
		}
		// key n-1-j when ⌊x⌋ = j, x exponential with rate γ and below n
		j := float64(n - 1 - i)
		exponential[i] = (math.Exp(-gamma*j) - math.Exp(-gamma*(j+1))) / (1 - math.Exp(-gamma*n))
	}
	latest := make([]float64, n)
	zn := exactZeta(n, ZipfianConstant)
	for i := range int64(n) {
		latest[n-1-i] = gray(i, n, zn)
	}
	tests := []struct {
		name string
		d    Distribution
		want []float64
	}{
		// uniform: every key 1/n
		{"uniform", Uniform{}, uniform},
		// YCSB's hotspot defaults: 80% of the draws on the first 20% of keys
		{"hotspot", NewHotspot(0.2, 0.8), hot},
		// YCSB's exponential defaults: the newest keys favoured
		{"exponential", NewExponential(95, 0.8571428571), exponential},
		// latest: Zipfian over recency, the newest key the favourite
		{"latest", NewLatest(ZipfianConstant), latest},
		// scrambled Zipfian over exactly the key space: FNV-hashed ranks
		{"zipfian", NewScrambledZipfian(n), scrambledLaw(n)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, 13))
			counts := make([]int, n)
			for range draws {
				counts[tt.d.Next(r, n)]++
			}
			chi2, df := chiSquare(counts, tt.want, draws)
			t.Logf("chi-square %.0f over %d degrees of freedom (limit %.0f)", chi2, df, chi2Critical(df))
			if limit := chi2Critical(df); chi2 > limit {
				t.Errorf("chi-square %.0f over %d degrees of freedom, above %.0f: the draws do not follow the law", chi2, df, limit)
			}
		})
	}
}

// TestSequentialPasses checks sequential's law: each pass of n draws, from
// any number of workers, visits every key exactly once.
func TestSequentialPasses(t *testing.T) {
	s := &Sequential{}
	const n = 97
	counts := make([]int, n)
	for range 3 * n {
		counts[s.Next(nil, n)]++
	}
	for k, c := range counts {
		if c != 3 {
			t.Fatalf("key %d drawn %d times in 3 passes", k, c)
		}
	}
}

// TestScrambledZipfianYCSB protects the YCSB specifics of the scrambled
// Zipfian: its ζ is YCSB's ZETAN, ζ(10^10) for ITEM_COUNT 10^10 (see
// ycsbZetan), its favourite key is the hash of rank 0, and its item count
// stays fixed while the key space grows.
func TestScrambledZipfianYCSB(t *testing.T) {
	if zn, _ := NewZipfian(ZipfianConstant).zeta(10_000_000_000); math.Abs(zn-ycsbZetan)/ycsbZetan > 1e-9 {
		t.Errorf("ζ(10^10) = %.14f, YCSB's ZETAN is %.14f", zn, ycsbZetan)
	}

	r := rand.New(rand.NewPCG(5, 5))
	s := NewScrambledZipfian(0) // items: the key space at the first draw
	counts := map[int64]int{}
	for range 100_000 {
		counts[s.Next(r, 1000)]++
	}
	best := int64(-1)
	for k, c := range counts {
		if best < 0 || c > counts[best] {
			best = k
		}
	}
	if want := FNVHash64(0) % 1000; best != want {
		t.Errorf("favourite key %d, want fnvhash64(0) mod 1000 = %d", best, want)
	}
	// The key space grows to 3000: the item count stays 1000, so the same
	// keys stay popular and the new ones are never drawn (YCSB's zipfian
	// only reaches the inserts it planned for).
	for range 10_000 {
		if k := s.Next(r, 3000); k >= 1000 {
			t.Fatalf("drew key %d after growth; items fixed at 1000", k)
		}
	}
	// With room planned for inserts (items 1500 over 1000 keys), keys not
	// inserted yet are drawn again, never returned.
	planned := NewScrambledZipfian(1500)
	for range 10_000 {
		if k := planned.Next(r, 1000); k >= 1000 {
			t.Fatalf("drew key %d, past the 1000 inserted", k)
		}
	}
}

// TestFNVHash64 protects YCSB compatibility of hashed keys: record 0 is
// user6284781860667377211 in every YCSB load.
func TestFNVHash64(t *testing.T) {
	for k, want := range []int64{6284781860667377211, 8517097267634966620, 1820151046732198393} {
		if got := FNVHash64(int64(k)); got != want {
			t.Errorf("FNVHash64(%d) = %d, want %d", k, got, want)
		}
	}
}

// TestLatestFollowsInserts checks that latest follows the keys inserted
// during the run, and only once their inserts are over: while an insert is
// in flight its key is never drawn; once settled, it is the favourite.
func TestLatestFollowsInserts(t *testing.T) {
	ks := NewKeySpace(0, 1000)
	env := &Env{KeySpace: func(string) *KeySpace { return ks }}
	env.Mode = Insert
	ins := compile(t, `{$gen: key}`, env)
	env.Mode = Query
	qry := compile(t, `{$gen: key, distribution: latest}`, env)
	reader, writer := NewState(1, 1), NewState(1, 2)
	writer.HoldKeys()

	for round := range 5 {
		var newest int64
		for range 100 {
			newest = draw(t, ins, writer).Int64()
		}
		for range 2000 {
			if k := draw(t, qry, reader).Int64(); k >= newest-99 {
				t.Fatalf("round %d: drew key %d while its insert was in flight", round, k)
			}
		}
		writer.SettleKeys()
		n := newest + 1
		hits := 0
		const draws = 20_000
		for range draws {
			k := draw(t, qry, reader).Int64()
			if k >= n {
				t.Fatalf("round %d: drew key %d, beyond the key space", round, k)
			}
			if k == newest {
				hits++
			}
		}
		// The newest key is Zipf rank 0 of n: 1/ζ(n) of the draws, within
		// five standard deviations.
		p := 1 / exactZeta(n, ZipfianConstant)
		if tol := 5 * math.Sqrt(draws*p*(1-p)); math.Abs(float64(hits)-draws*p) > tol {
			t.Errorf("round %d: newest key %d drawn %d times, want %.0f ± %.0f", round, newest, hits, draws*p, tol)
		}
	}
}

// TestSettledOutOfOrder protects the acknowledged end: inserts that end
// out of order make keys reachable only up to the oldest still in flight.
func TestSettledOutOfOrder(t *testing.T) {
	ks := NewKeySpace(0, 10)
	a, b, c := ks.hold(), ks.hold(), ks.hold() // 10, 11, 12
	steps := []struct {
		settle int64
		want   int64 // end of the settled keys afterwards
	}{
		{b, 10}, // 11 done, 10 still in flight
		{a, 12}, // 10 and 11 done, 12 in flight
		{c, 13}, // all done
	}
	if _, end := ks.Settled(); end != 10 {
		t.Fatalf("settled end %d with 10..12 in flight, want 10", end)
	}
	for _, s := range steps {
		ks.settle(s.settle)
		if _, end := ks.Settled(); end != s.want {
			t.Fatalf("after settling %d: settled end %d, want %d", s.settle, end, s.want)
		}
	}
	if k := ks.Next(); k != 13 {
		t.Fatalf("untracked Next = %d, want 13", k)
	}
	if _, end := ks.Settled(); end != 14 {
		t.Fatalf("untracked keys exist at once: settled end %d, want 14", end)
	}
}

// TestZipfianLengths checks the zipfian integer distribution (YCSB's field
// and scan lengths): over [1, 100], 1 is the favourite at 1/ζ(100).
func TestZipfianLengths(t *testing.T) {
	g := compile(t, `{$gen: int, min: 1, max: 100, distribution: zipfian}`, nil)
	st := NewState(3, 3)
	counts := make([]int, 101)
	const draws = 100_000
	for range draws {
		v := draw(t, g, st).Int32()
		if v < 1 || v > 100 {
			t.Fatalf("drew %d outside [1, 100]", v)
		}
		counts[v]++
	}
	want := make([]float64, 100)
	zn := exactZeta(100, ZipfianConstant)
	for i := range int64(100) {
		want[i] = gray(i, 100, zn)
	}
	chi2, df := chiSquare(counts[1:], want, draws)
	if limit := chi2Critical(df); chi2 > limit {
		t.Errorf("chi-square %.0f over %d degrees of freedom, above %.0f", chi2, df, limit)
	}
}

// TestSettledConcurrent protects the acknowledged end under concurrency:
// while a worker holds a key, no reader sees it as settled, and once every
// hold is over every key is.
func TestSettledConcurrent(t *testing.T) {
	ks := NewKeySpace(0, 0)
	const workers, each = 8, 2000
	var wg sync.WaitGroup
	errs := make(chan string, workers)
	for range workers {
		wg.Go(func() {
			for range each {
				k := ks.hold()
				if _, end := ks.Settled(); end > k {
					errs <- fmt.Sprintf("key %d is held but the settled keys end at %d", k, end)
					return
				}
				ks.settle(k)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	if _, end := ks.Settled(); end != workers*each {
		t.Fatalf("settled end %d after every hold ended, want %d", end, workers*each)
	}
}
