package analysis

import (
	"math"
	"testing"
)

// fixtureRow is one step of a fixture: load, throughput, latency (ms) and the
// verdict the rules must give.
type fixtureRow struct {
	level, tput, lat float64
	want             SweepVerdict
}

// The fixtures are the verdict tables of "Unveiling the Limits: A
// Performance Evaluation of MongoDB Sharded Clusters with plgm" (Percona,
// 2026; seed 000). Where the blog's own word maps onto the vocabulary it is
// noted; where the rules give another verdict, the row says why.
var sweepFixtures = []struct {
	name                    string
	rows                    []fixtureRow
	sweet, saturation, plat int
}{
	{
		name: "workload #1: 100% find by shard key",
		rows: []fixtureRow{
			{4, 2635, 1.51, Underutilised},        // blog: Underutilized
			{8, 6493, 1.23, LinearScaling},        // blog: Efficient Scaling; 146% of the proportional gain is linear by --linear-gain 0.8
			{16, 10678, 1.49, EfficientScaling},   // blog: Efficient Scaling (65% of proportional)
			{32, 13018, 2.45, SweetSpot},          // blog: Sweet Spot (22% of proportional; nothing higher gains 20%)
			{48, 12322, 3.89, SaturationBegins},   // blog: Saturation Begins
			{64, 13548, 4.71, MaxThroughput},      // blog: Max Throughput (within 10% of the best, 13,610)
			{80, 13610, 5.86, DiminishingReturns}, // blog: High Latency / No Gain
			{96, 12573, 7.62, Degraded},           // blog: Degraded Performance (7.6% below 13,610)
			{128, 13309, 9.60, Oversaturated},     // blog: Oversaturated (latency 3.9x the sweet spot's)
		},
		sweet: 3, saturation: 4, plat: 5,
	},
	{
		// The blog gives read and write averages; the latency here is the
		// mix's average, 0.54 read + 0.46 write.
		name: "workload #2: mixed 54% reads, queries.json",
		rows: []fixtureRow{
			{4, 2225, 0.54*1.54 + 0.46*1.88, Underutilised},         // blog: Underutilized
			{16, 6195, 0.54*2.25 + 0.46*2.77, EfficientScaling},     // blog: High Efficiency (60% of proportional)
			{32, 7689, 0.54*3.60 + 0.46*4.45, SweetSpot},            // blog: Sweet Spot
			{48, 8096, 0.54*5.16 + 0.46*6.53, SaturationBegins},     // blog: Saturation Begins
			{64, 8174, 0.54*6.94 + 0.46*8.45, MaxThroughput},        // blog: Max Stability (6.8% below the best, 8,767)
			{96, 8545, 0.54*10.11 + 0.46*11.56, DiminishingReturns}, // blog: Diminishing Returns (latency 2.7x the sweet spot's)
			{128, 8767, 0.54*13.00 + 0.46*14.86, Oversaturated},     // blog: Oversaturated (3.5x), although its throughput is the highest
		},
		sweet: 2, saturation: 3, plat: 4,
	},
	{
		name: "workload #3: mixed 54% reads, default workload",
		rows: []fixtureRow{
			{4, 1909, 1.62, Underutilised},       // blog: Underutilized
			{16, 5631, 2.40, EfficientScaling},   // blog: Linear Scaling; 4x the load for 2.95x the throughput is 65% of proportional, below --linear-gain 0.8
			{32, 7488, 3.69, SweetSpot},          // blog: Sweet Spot
			{48, 8014, 5.16, SaturationBegins},   // blog: Saturation Point
			{64, 7991, 6.80, MaxThroughput},      // blog: Plateau (3.2% below the best, 8,256)
			{80, 8179, 8.42, DiminishingReturns}, // blog: Latency Spike (2.3x the sweet spot's latency)
			{96, 7811, 10.48, Degraded},          // blog: Performance Loss (4.5% below 8,179)
			{128, 8256, 13.41, Oversaturated},    // blog: Excessive Queuing (3.6x)
		},
		sweet: 2, saturation: 3, plat: 4,
	},
	{
		name: "still scaling at the highest step: no saturation",
		rows: []fixtureRow{
			{1, 900, 1.1, Underutilised},     // more load still bought throughput
			{2, 1800, 1.1, LinearScaling},    // proportional
			{4, 3300, 1.2, LinearScaling},    // 83% of proportional
			{8, 5200, 1.5, EfficientScaling}, // 58%: scaling, not linear; nothing saturated yet
		},
		sweet: -1, saturation: -1, plat: -1,
	},
	{
		name: "already saturated at the lowest step",
		rows: []fixtureRow{
			{16, 5000, 3.2, SweetSpot},        // nothing higher gains 20% of proportional
			{32, 5100, 6.3, SaturationBegins}, // +2% for twice the load
			{64, 5050, 12.7, MaxThroughput},   // on the plateau (within 10% of 5,100): the ceiling was reached at 32 already
		},
		sweet: 0, saturation: 1, plat: 2,
	},
	{
		name: "open loop: throughput follows the rate until latency explodes",
		rows: []fixtureRow{
			{1000, 1000, 0.9, Underutilised},    // the rate was met
			{2000, 2000, 1.0, LinearScaling},    // met again
			{4000, 3990, 1.4, SweetSpot},        // met, but the next step's latency is 100x: queueing began past it
			{8000, 6100, 140, SaturationBegins}, // the server fell behind: the rate was not met
		},
		sweet: 2, saturation: 3, plat: -1,
	},
	{
		// A real open-loop sweep on an overloaded machine (the local test
		// server sharing 2 cores with other runs): the rate was never met.
		name: "open loop past capacity from the start",
		rows: []fixtureRow{
			{200, 185.3, 15.852, SweetSpot},       // the next step's latency is 38x: queueing began
			{400, 226.5, 610.0, SaturationBegins}, // 57% of the rate
			{800, 289.3, 1330.2, Oversaturated},   // 84x the sweet spot's latency, below the plateau
			{3000, 351.3, 1821.1, Oversaturated},  // on the plateau, but after an oversaturated step: no Max throughput
		},
		sweet: 0, saturation: 1, plat: -1,
	},
	{
		name: "a noisy dip below the knee does not make a false sweet spot",
		rows: []fixtureRow{
			{8, 2000, 4.0, Underutilised},
			{16, 2100, 7.6, EfficientScaling},  // only 5% of proportional, but 32 gains 33% over 8, so 8 is no sweet spot
			{32, 4000, 8.0, SweetSpot},         // nothing higher gains 20% of proportional over it
			{64, 4200, 15.2, SaturationBegins}, // 5% of proportional
			{128, 4250, 30.1, MaxThroughput},   // the highest throughput
		},
		sweet: 2, saturation: 3, plat: 4,
	},
}

func TestJudgeSweep(t *testing.T) {
	for _, f := range sweepFixtures {
		t.Run(f.name, func(t *testing.T) {
			pts := make([]SweepPoint, len(f.rows))
			for i, r := range f.rows {
				pts[i] = SweepPoint{Level: r.level, Throughput: r.tput, Latency: r.lat}
			}
			j := JudgeSweep(pts, DefaultSweepRules())
			for i, r := range f.rows {
				if j.Verdicts[i] != r.want {
					t.Errorf("step %g: verdict %q, want %q (gain %.3f)", r.level, j.Verdicts[i], r.want, j.Gain[i])
				}
			}
			if j.SweetSpot != f.sweet || j.Saturation != f.saturation || j.Plateau != f.plat {
				t.Errorf("sweet spot %d, saturation %d, plateau %d; want %d, %d, %d", j.SweetSpot, j.Saturation, j.Plateau, f.sweet, f.saturation, f.plat)
			}
		})
	}
}

func TestJudgeSweepEdges(t *testing.T) {
	r := DefaultSweepRules()
	if j := JudgeSweep(nil, r); len(j.Verdicts) != 0 || j.Best != -1 {
		t.Errorf("no steps: %+v", j)
	}
	// One step: nothing to compare it with.
	j := JudgeSweep([]SweepPoint{{Level: 4, Throughput: 100, Latency: 1}}, r)
	if j.Verdicts[0] != "" || j.SweetSpot != -1 || j.Best != 0 {
		t.Errorf("one step: %+v", j)
	}
	// Every operation failed at every step: no throughput, no panic.
	j = JudgeSweep([]SweepPoint{{1, 0, 0}, {2, 0, 0}, {4, 0, 0}}, r)
	if j.Verdicts[0] != SweetSpot || j.Verdicts[1] != SaturationBegins {
		t.Errorf("no throughput: %v", j.Verdicts)
	}
	if !math.IsNaN(j.Gain[0]) {
		t.Errorf("first step's gain %v, want NaN", j.Gain[0])
	}
}

func TestGain(t *testing.T) {
	for _, c := range []struct {
		a, b SweepPoint
		want float64
	}{
		{SweepPoint{Level: 4, Throughput: 100}, SweepPoint{Level: 8, Throughput: 200}, 1},    // proportional
		{SweepPoint{Level: 4, Throughput: 100}, SweepPoint{Level: 8, Throughput: 100}, 0},    // flat
		{SweepPoint{Level: 4, Throughput: 100}, SweepPoint{Level: 8, Throughput: 50}, -0.5},  // fell by half
		{SweepPoint{Level: 4, Throughput: 0}, SweepPoint{Level: 8, Throughput: 10}, 1},       // from nothing: linear
		{SweepPoint{Level: 4, Throughput: 100}, SweepPoint{Level: 16, Throughput: 250}, 0.5}, // 4x load, 2.5x throughput
	} {
		if g := Gain(c.a, c.b); math.Abs(g-c.want) > 1e-9 {
			t.Errorf("Gain(%v, %v) = %v, want %v", c.a, c.b, g, c.want)
		}
	}
	if g := Gain(SweepPoint{Level: 8}, SweepPoint{Level: 8}); !math.IsNaN(g) {
		t.Errorf("same level: %v, want NaN", g)
	}
}

func TestSweepRulesValidate(t *testing.T) {
	if err := DefaultSweepRules().Validate(); err != nil {
		t.Fatal(err)
	}
	bad := DefaultSweepRules()
	bad.KneeGain = 0.9 // above the linear gain
	if bad.Validate() == nil {
		t.Error("knee above linear accepted")
	}
}
