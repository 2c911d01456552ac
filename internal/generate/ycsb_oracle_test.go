package generate

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The constants of YCSB's ScrambledZipfianGenerator, written here from
// YCSB's source (core/src/main/java/site/ycsb/generator), independently of
// the implementation's own constants: ITEM_COUNT, ZETAN and the Zipfian
// constant. Its inner ZipfianGenerator(0, ITEM_COUNT) has inclusive bounds,
// so it draws over ITEM_COUNT+1 items.
const (
	ycsbItemCount = 10000000000
	ycsbZETAN     = 26.46902820178302
	ycsbTheta     = 0.99
)

// ycsbRankProbs returns the probability that YCSB's
// ZipfianGenerator(0, ITEM_COUNT, 0.99, ZETAN) returns each of the first
// ranks: Gray et al.'s method, exact for ranks 0 and 1, beyond them the
// width of the band of u mapped to i by ⌊n·(η·u − η + 1)^α⌋, that is
// u(i+1) − u(i) with u(i) = 1 + ((i/n)^(1−θ) − 1)/η.
func ycsbRankProbs(ranks int) []float64 {
	n := float64(ycsbItemCount + 1)
	zeta2 := 1 + math.Pow(0.5, ycsbTheta)
	eta := (1 - math.Pow(2/n, 1-ycsbTheta)) / (1 - zeta2/ycsbZETAN)
	u := func(i int) float64 { return 1 + (math.Pow(float64(i)/n, 1-ycsbTheta)-1)/eta }
	p := make([]float64, ranks)
	p[0], p[1] = 1/ycsbZETAN, math.Pow(2, -ycsbTheta)/ycsbZETAN
	next := u(2)
	for i := 2; i < ranks; i++ {
		at := next
		next = u(i + 1)
		p[i] = next - at
	}
	return p
}

// ycsbScrambledShares returns the expected top-k shares of YCSB's
// ScrambledZipfianGenerator over items items whose draws of keys at or
// past keys are drawn again (CoreWorkload's nextKeynum: it builds the
// generator with room for the inserts it expects, plus one), given the
// probabilities of the first ranks (ycsbRankProbs), which are hashed
// exactly; the rest of the mass (each rank below 4e-8, about a million
// of them per key) falls evenly over the items.
func ycsbScrambledShares(probs []float64, items, keys int64, ks []int) []float64 {
	p := make([]float64, items)
	rest := 1.0
	for r, q := range probs {
		p[FNVHash64(int64(r))%items] += q
		rest -= q
	}
	for i := range p {
		p[i] += rest / float64(items)
	}
	return topShares(p[:keys], ks)
}

// topShares sorts weights in decreasing order and returns, for each k, the
// share of the total held by the k heaviest.
func topShares(w []float64, ks []int) []float64 {
	s := slices.Clone(w)
	slices.SortFunc(s, func(a, b float64) int { return -cmpFloat(a, b) })
	total := 0.0
	for _, x := range s {
		total += x
	}
	out := make([]float64, len(ks))
	for j, k := range ks {
		for _, x := range s[:k] {
			out[j] += x
		}
		out[j] /= total
	}
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestScrambledZipfianTopKYCSB checks the scrambled zipfian's head against
// YCSB's: the top 1/10/100/1000 keys of 10,000 get the shares Gray's
// formula gives with YCSB's constants, which in turn match what YCSB's own
// jar measured (issue 16: ScrambledZipfianGenerator(10000), 2,000,000
// draws: 3.80%, 11.9%, 21.5%, 36.7%). Ranks drawn over 10^16 items instead
// of YCSB's 10^10 gave 9.4%/15.3%/28.8% for the top 10/100/1000. The
// second case is CoreWorkload's form: 10,000 records loaded, no inserts
// expected, so the generator spans 10,001 items and draws of key 10,000
// are drawn again.
func TestScrambledZipfianTopKYCSB(t *testing.T) {
	const draws = 1_000_000
	ks := []int{1, 10, 100, 1000}
	measuredByYCSB := []float64{0.0380, 0.119, 0.215, 0.367}
	probs := ycsbRankProbs(1 << 20)
	formula := ycsbScrambledShares(probs, 10000, 10000, ks)
	for j := range ks {
		// the formula against YCSB's jar: within its sampling noise and the
		// rounding of the published figures
		if d := math.Abs(formula[j]-measuredByYCSB[j]) / measuredByYCSB[j]; d > 0.01 {
			t.Fatalf("Gray's formula gives top%d = %.4f, YCSB measured %.4f: the oracle itself is off", ks[j], formula[j], measuredByYCSB[j])
		}
	}
	for _, tt := range []struct{ items, keys int64 }{{10000, 10000}, {10001, 10000}} {
		t.Run(fmt.Sprintf("items %d over %d keys", tt.items, tt.keys), func(t *testing.T) {
			want := ycsbScrambledShares(probs, tt.items, tt.keys, ks)
			s := NewScrambledZipfian(tt.items)
			r := rand.New(rand.NewPCG(16, 16))
			counts := make([]float64, tt.keys)
			for range draws {
				counts[s.Next(r, tt.keys)]++
			}
			got := topShares(counts, ks)
			for j, k := range ks {
				// 5 standard errors of a share p over the draws (at most 0.0025)
				tol := 5 * math.Sqrt(want[j]*(1-want[j])/draws)
				t.Logf("top%d: mongoload %.4f, YCSB's law %.4f (±%.4f)", k, got[j], want[j], tol)
				if math.Abs(got[j]-want[j]) > tol {
					t.Errorf("top%d share %.4f, YCSB's law %.4f ± %.4f", k, got[j], want[j], tol)
				}
			}
		})
	}
}

// TestExponentialPercentileYCSB checks YCSB's exponential request
// distribution by its definition: percentile% of the draws of the
// unbounded exponential fall on the newest fraction·n keys; CoreWorkload
// draws again past the oldest key, so the share within the key space is
// percentile / (1 − e^(−γn)).
func TestExponentialPercentileYCSB(t *testing.T) {
	tests := []struct{ pct, frac float64 }{{95, 0.8571428571}, {50, 0.1}, {99, 0.5}}
	const n, draws = 10000, 500_000
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%g/%g", tt.pct, tt.frac), func(t *testing.T) {
			gammaN := -math.Log(1-tt.pct/100) / tt.frac // γ·n
			want := tt.pct / 100 / (1 - math.Exp(-gammaN))
			e := NewExponential(tt.pct, tt.frac)
			r := rand.New(rand.NewPCG(7, 8))
			newest := int64(tt.frac * n)
			in := 0
			for range draws {
				if k := e.Next(r, n); n-1-k < newest {
					in++
				}
			}
			got := float64(in) / draws
			tol := 5*math.Sqrt(want*(1-want)/draws) + 1.0/n // + one key's rounding
			if math.Abs(got-want) > tol {
				t.Errorf("newest %d keys got %.4f of the draws, want %.4f ± %.4f", newest, got, want, tol)
			}
		})
	}
}

// TestHotspotSplitYCSB checks HotspotIntegerGenerator's split: hotOpn of
// the draws on the first ⌊n·hotData⌋ keys, the rest on the others, each
// set uniform (its mean at its middle).
func TestHotspotSplitYCSB(t *testing.T) {
	tests := []struct{ data, opn float64 }{{0.2, 0.8}, {0.01, 0.99}, {0.5, 0.1}}
	const n, draws = 10000, 400_000
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%g/%g", tt.data, tt.opn), func(t *testing.T) {
			h := NewHotspot(tt.data, tt.opn)
			r := rand.New(rand.NewPCG(3, 4))
			hot := int64(n * tt.data)
			var inHot int
			var sumHot, sumCold float64
			for range draws {
				if k := h.Next(r, n); k < hot {
					inHot++
					sumHot += float64(k)
				} else {
					sumCold += float64(k)
				}
			}
			got := float64(inHot) / draws
			if tol := 5 * math.Sqrt(tt.opn*(1-tt.opn)/draws); math.Abs(got-tt.opn) > tol {
				t.Errorf("hot set got %.4f of the draws, want %.4f ± %.4f", got, tt.opn, tol)
			}
			if m, want := sumHot/float64(inHot), float64(hot-1)/2; math.Abs(m-want) > 0.02*float64(n) {
				t.Errorf("hot set mean %.1f, want %.1f (uniform)", m, want)
			}
			if m, want := sumCold/float64(draws-inHot), float64(hot+n-1)/2; math.Abs(m-want) > 0.02*float64(n) {
				t.Errorf("cold set mean %.1f, want %.1f (uniform)", m, want)
			}
		})
	}
}

// ycsbBytePositions are the values YCSB's RandomByteIterator can write at
// each position of a group of six: ' ' + bits & 31, & 63, & 95 (95 is
// 0b1011111: 0-31 and 64-95), & 31, & 63, & 95.
func ycsbBytePositions() [6][128]bool {
	var can [6][128]bool
	for j, mask := range []int{31, 63, 95, 31, 63, 95} {
		for v := range 128 {
			if v&mask == v {
				can[j][' '+v] = true
			}
		}
	}
	return can
}

// TestYCSBFieldBytes checks {$gen: binary, bytes: ycsb} against YCSB's
// RandomByteIterator: every byte printable (32-127), each position of a
// group of six takes exactly the values its mask allows (every one of them
// seen, no other), for field lengths that cut the last group short; and
// the values compress as YCSB's do: 34 random bits per six bytes, so zlib
// cannot get them below 34/48 = 70.8% and gets them to about 79%, where
// uniform bytes do not shrink.
func TestYCSBFieldBytes(t *testing.T) {
	can := ycsbBytePositions()
	st := NewState(1, 1)
	for _, length := range []int{1, 5, 6, 7, 11, 12, 23, 100, 1001} {
		g := compile(t, fmt.Sprintf(`{$gen: binary, length: %d, bytes: ycsb}`, length), nil)
		var seen [6][128]bool
		for range 3000 {
			sub, b := draw(t, g, st).Binary()
			if sub != 0 || len(b) != length {
				t.Fatalf("length %d: subtype %d, %d bytes", length, sub, len(b))
			}
			for i, c := range b {
				if c >= 128 || !can[i%6][c] {
					t.Fatalf("length %d: byte %d is %d, which YCSB cannot write there", length, i, c)
				}
				seen[i%6][c] = true
			}
		}
		for j := range min(6, length) {
			if seen[j] != can[j] {
				t.Errorf("length %d: position %d does not take every value YCSB's mask allows", length, j)
			}
		}
	}

	ratio := func(src string) float64 {
		g := compile(t, src, nil)
		var raw, z bytes.Buffer
		for range 1000 {
			_, b := draw(t, g, st).Binary()
			raw.Write(b)
		}
		w := zlib.NewWriter(&z)
		w.Write(raw.Bytes())
		w.Close()
		return float64(z.Len()) / float64(raw.Len())
	}
	r := ratio(`{$gen: binary, length: 100, bytes: ycsb}`)
	t.Logf("YCSB bytes compress to %.3f with zlib", r)
	if r < 34.0/48 || r > 0.85 {
		t.Errorf("YCSB bytes compress to %.3f, want between 0.708 (their entropy) and 0.85", r)
	}
	if r := ratio(`{$gen: binary, length: 100}`); r < 0.99 {
		t.Errorf("uniform bytes compress to %.3f, want no gain", r)
	}
}

// TestBinaryBytesParam checks the bytes parameter's errors.
func TestBinaryBytesParam(t *testing.T) {
	if _, err := Compile(parse(t, `{$gen: binary, bytes: ascii}`), nil); err == nil {
		t.Error("bytes: ascii accepted")
	}
}
