package capacity

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
)

// stallServer is the test server as capacity4 measured it, pinned to one
// core: a 5-second window fails p99<=8ms at random, in about one of five
// at 3,000 ops/s, three of five at 3,500 and all at 4,100, because the
// server stalls (a second in which 5-40% of its operations take over
// 8 ms), not because its latency rises smoothly; past 4,600 it drops
// operations. Each probe's seconds are counted as the real tail counter
// counts them, so the real judge (the batch-means interval) decides, and
// windows with a stall mostly come out inconclusive. scale multiplies
// every rate (a server twice as fast); clean is a server without stalls,
// whose share over 8 ms rises smoothly with the rate and crosses 1% at
// 3,500 ops/s (times scale).
type stallServer struct {
	rng   *rand.Rand
	scale float64
	clean bool
	// curve, when set, is the chance a window fails by rate in place of
	// the stalling one, and drops the rate past which operations drop.
	curve [][2]float64
	drops float64
	base  *results.Result // one result, copied for every probe: building one per probe is most of the test's time
}

// plateau is the test server as capacity4's independent client found it
// on a quiet host (capacity3's numbers in edge.go, and round 6's runs):
// a window fails on a stall about one time in ten at any rate up to
// 5,000 ops/s (the low ends, 3,514-4,306, met 13 of 15), then the edge:
// a third at 5,600, most at 6,400, all at 7,000; past 7,500 operations
// drop. A single failing window below the edge is a stall, not the edge.
var plateau = [][2]float64{{0, 0.02}, {2000, 0.08}, {5000, 0.1}, {5600, 0.33}, {6400, 0.83}, {7000, 1}}

// windowFails is the chance a fresh 5-second window fails: the oracle's.
func (s stallServer) windowFails(r float64) float64 {
	r /= s.scale
	if s.clean {
		if s.cleanShare(r) > 0.01 || r > 4600 {
			return 1
		}
		return 0
	}
	pts := [][2]float64{{0, 0}, {2000, 0.01}, {2500, 0.06}, {3000, 0.2}, {3500, 0.6}, {4100, 1}}
	if s.curve != nil {
		pts = s.curve
	}
	for i := 1; i < len(pts); i++ {
		if a, b := pts[i-1], pts[i]; r <= b[0] {
			return a[1] + (b[1]-a[1])*(r-a[0])/(b[0]-a[0])
		}
	}
	return 1
}

func (stallServer) cleanShare(r float64) float64 { return 0.01 * math.Pow(r/3500, 6) }

func (s *stallServer) run(ctx context.Context, rate float64, st Stage, counts sink.Sink) (*results.Result, error) {
	if s.base == nil {
		s.base, _ = system{limit: math.Inf(1)}.run(ctx, 1000, st)
	}
	res := *s.base
	res.Load.Rate, res.Totals.Throughput, res.Schedule = rate, rate, &results.Schedule{TargetRate: rate}
	perSecond := 1 - math.Pow(1-s.windowFails(rate), 0.2) // a stall in a given second
	c := counts.(*tailCounter)
	for i := 0; i < 5; i++ {
		n := int64(rate)
		over := int64(float64(n) * 0.002 * (0.5 + s.rng.Float64()))
		switch {
		case s.clean:
			over = int64(float64(n) * s.cleanShare(rate/s.scale) * (0.9 + 0.2*s.rng.Float64()))
		case s.rng.Float64() < perSecond:
			over = int64(float64(n) * (0.05 + 0.35*s.rng.Float64()))
		}
		c.counts[0] = append(c.counts[0], TailCount{Ops: n, Over: over})
	}
	drops := 4600.0
	if s.drops > 0 {
		drops = s.drops
	}
	if rate > drops*s.scale {
		res.Schedule.Dropped = int64(rate) / 10
	}
	res.DurationSeconds = 5
	return &res, nil
}

// TestDecidedShowsItsAnswer runs 200 whole searches (Search.Do, the real
// judge and capacity4's probe budget of 16, every probe counted) against
// stallServer, started where the estimate starts them there, and against
// the same server twice as fast and one without stalls. Every answer must
// be a rate shown to pass by the rule (edge.go), checked from the probes
// themselves, not from the search's word. The bars: the high end shown
// in at least 97% of searches, and a fresh window (the independent
// client's, judged by its p99) failing at 1.25 times the high end at
// least 85% of the time on average (94-97% measured; 83-90% when one
// failing window showed the high end, and 53% on the real server in
// capacity4, where one stall set it: plateau). At the answer a fresh
// window fails 17-18% of the time on the stalling servers, 11% on plateau
// and none on clean (16-17% with four passes to outvote a stall,
// PassesPerStall; 15-16% and 10% with the raise aimed halfway up its gap
// and bounded by a rate that stalled once; 13-14% and 11% with a stall
// ruling its rate out for good; 18-19% and 16% with EdgeMargin 1.15; 22%
// and 19% before, 25% and 22% with stalls set aside but no margin below
// the edge; 2% on clean with the margin only once windows disagreed).
// Intervals wider than 1.4: 13 and 12 of 200 on the stalling servers, 17
// on plateau, whose edge from 10% to 83% spans a factor 1.28 a search of
// 16 probes must find under stalls (7, 10 and 30 with four passes to
// outvote a stall; 15, 9 and 22 before a rate ruled out under the high
// end was measured again, ruledOut. Of 1,000: 50, 45 and 69; 57, 61 and
// 90 with four passes; 82, 66 and 98 before ruledOut; 104, 91 and 229
// with the raise halfway and bounded by a stall, RaiseShare and raiseTo.
// Of 200, 25-29 and 55 with a stall ruling its rate out, each candidate a
// stall touched sending the answer further down, and 14-19 and 41 with
// EdgeMargin 1.15).
func TestDecidedShowsItsAnswer(t *testing.T) {
	models := []struct {
		name  string
		scale float64
		clean bool
		atLow float64 // the bound on a fresh window's failures at the answer
		wide  int     // the most intervals wider than 1.4, of 200
		curve [][2]float64
		drops float64
	}{
		{"stalling", 1, false, 0.18, 14, nil, 0},
		{"stalling, twice as fast", 2, false, 0.18, 14, nil, 0},
		{"clean", 1, true, 0.01, 0, nil, 0},
		{"plateau", 1, false, 0.12, 22, plateau, 7500},
	}
	for i, m := range models {
		t.Run(m.name, func(t *testing.T) {
			sys := &stallServer{rng: rand.New(rand.NewPCG(4+uint64(i), 49)), scale: m.scale, clean: m.clean, curve: m.curve, drops: m.drops}
			checkDecided(t, sys, m.atLow, m.wide)
		})
	}
}

// searchesFlag sets how many searches TestDecidedShowsItsAnswer runs a
// server (the bars on wide intervals scale with it): the figures quoted
// in edge.go and decided.go are of 1,000,
//
//	go test ./internal/capacity -run TestDecidedShowsItsAnswer -v -args -searches=1000
var searchesFlag = flag.Int("searches", 200, "searches a server in TestDecidedShowsItsAnswer")

func checkDecided(t *testing.T, sys *stallServer, maxAtLow float64, maxWide int) {
	objs, err := analysis.ParseObjectives("p99<=8ms")
	if err != nil {
		t.Fatal(err)
	}
	searches := max(1, *searchesFlag)
	maxWide = maxWide * searches / 200
	var atLow, atHigh float64
	unshownHigh, wide, probes := 0, 0, 0
	for i := 0; i < searches; i++ {
		f := searchOnce(t, sys, objs)
		probes += len(f.Probes)
		iv := f.MaxRateInterval
		if len(f.Probes) > capacity4Probes || !f.Found || iv == nil {
			t.Fatalf("search %d: %d probes, found %v, interval %+v: %s", i, len(f.Probes), f.Found, iv, trace(f.Probes))
		}
		if !shownByProbes(f.Probes, f.MaxRate) || iv.Low != f.MaxRate || iv.Unshown == "low" {
			t.Fatalf("search %d answered %g, not shown to pass by its probes: %+v", i, f.MaxRate, iv)
		}
		atLow += sys.windowFails(f.MaxRate) / float64(searches)
		if iv.Unshown != "" || iv.High == 0 {
			unshownHigh++
			t.Logf("high end unshown [%g, %g]:%s", iv.Low, iv.High, trace(f.Probes))
			continue
		}
		atHigh += sys.windowFails(1.25 * iv.High)
		if iv.High > 1.4*iv.Low {
			wide++
			t.Logf("wider than 1.4 [%g, %g]:%s", iv.Low, iv.High, trace(f.Probes))
		}
		if i < 2 {
			t.Logf("[%g, %g]:%s", iv.Low, iv.High, trace(f.Probes))
		}
	}
	atHigh /= float64(searches - unshownHigh)
	t.Logf("a fresh window fails %.0f%% of the time at the answer, %.0f%% at 1.25x the high end; %d of %d high ends unshown, %d intervals wider than 1.4; %.1f probes a search",
		100*atLow, 100*atHigh, unshownHigh, searches, wide, float64(probes)/float64(searches))
	if atLow > maxAtLow {
		t.Errorf("a fresh window at the answers fails %.0f%% of the time, want at most %.0f%%", 100*atLow, 100*maxAtLow)
	}
	if atHigh < 0.85 {
		t.Errorf("a fresh window at 1.25x the high ends fails %.0f%% of the time, want at least 85%%", 100*atHigh)
	}
	if unshownHigh > searches*3/100 {
		t.Errorf("%d of %d high ends unshown, want at most 3%%", unshownHigh, searches)
	}
	if wide > maxWide {
		t.Errorf("%d of %d intervals wider than 1.4, want at most %d", wide, searches, maxWide)
	}
}

// capacity4Probes is the probe budget capacity4 gives each search.
const capacity4Probes = 16

// searchOnce runs one whole search of sys as capacity4 runs it (16
// probes, started where the estimate starts them there: half a closed
// loop's throughput), every probe judged by the real judge.
func searchOnce(t *testing.T, sys *stallServer, objs []analysis.Objective) *results.FindMax {
	pol := DefaultPolicy(math.Round(sys.scale * (3600 + 600*sys.rng.Float64())))
	pol.MaxProbes = capacity4Probes
	f := &results.FindMax{SLO: []string{"p99<=8ms"}, AchievedShare: DefaultAchievedShare}
	s := Search{Policy: pol, Objectives: objs, AchievedShare: DefaultAchievedShare, MaxExtensions: MaxExtensions, RunCounted: sys.run}
	if err := s.Do(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	return f
}

// shownByProbes is the rule, read from the probes as the file holds them
// (an extended window counts its runs): at rate at least NeedPass runs
// passed, PassesPerStall for each that failed (one at most, by its point
// estimate: the loop below refuses the rest), and no rate at or below it
// failed by its
// interval, in NeedFail runs, or leans to failing: a run there not
// carried, or more runs failed than passed both there and from there to
// FailSpan times it.
func shownByProbes(probes []results.Probe, rate float64) bool {
	type runs struct{ pass, fail, clear, sure int }
	by := map[float64]*runs{}
	for _, p := range probes {
		if p.Terms == nil {
			continue
		}
		r := by[p.Rate]
		if r == nil {
			r = &runs{}
			by[p.Rate] = r
		}
		n := max(1, p.Tails[0].Segments)
		switch {
		case p.Pass:
			r.pass += n
		case notCarried(p.Terms):
			r.fail, r.clear = r.fail+n, r.clear+1
		default:
			r.fail += n
		}
		if !p.Pass && !p.Inconclusive {
			r.sure++
		}
	}
	for q, at := range by {
		if q > rate {
			continue
		}
		pass, fail := 0, 0
		for u, t := range by {
			if u >= q && u <= q*FailSpan {
				pass, fail = pass+t.pass, fail+t.fail
			}
		}
		if at.clear > 0 || at.sure > 0 || at.fail >= NeedFail || at.fail > at.pass && fail > pass {
			return false
		}
	}
	at := by[rate]
	return rate > 0 && at != nil && at.fail < NeedFail && at.pass >= max(NeedPass, PassesPerStall*at.fail)
}

// trace is a search's probes in a line, for a failure's message.
func trace(probes []results.Probe) string {
	s := ""
	for _, p := range probes {
		v := "extend"
		switch {
		case p.Terms != nil && p.Pass:
			v = "pass"
		case p.Terms != nil:
			v = "FAIL"
		}
		if p.Inconclusive {
			v += "?"
		}
		s += fmt.Sprintf(" %s %g %s;", p.Stage, p.Rate, v)
	}
	return s
}
