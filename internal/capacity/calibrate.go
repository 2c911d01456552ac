package capacity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/results"
)

// ServerCPU is a run's server CPU as a share of the server's cores
// (0..1), the cores and where the CPU was read; the error names what is
// missing when it cannot be had.
func ServerCPU(res *results.Result) (share float64, cores int, source string, err error) {
	srv := res.Server
	if srv == nil || srv.Unavailable != "" {
		why := "server telemetry is off (--server-telemetry)"
		if srv != nil {
			why = srv.Unavailable
		}
		return 0, 0, "", fmt.Errorf("the server's CPU cannot be measured: no server telemetry: %s", why)
	}
	f := analysis.ServerFiguresOf(srv)
	if f == nil || f.CPUCores == nil {
		return 0, 0, "", errors.New("the server's CPU cannot be measured: serverStatus.extra_info reports no user_time_us/system_time_us, " +
			"and it cannot be read from the operating system, which needs the server on this host (a loopback --uri) and its pid in serverStatus" + cpuNote(srv))
	}
	if c := res.Context; c == nil || c.Host == nil || c.Host.Cores == nil || *c.Host.Cores <= 0 {
		return 0, 0, "", errors.New("the server's CPU share cannot be computed: hostInfo did not report the server's cores")
	}
	cores = int(*res.Context.Host.Cores)
	return *f.CPUCores / float64(cores), cores, srv.CPUSource, nil
}

// cpuNote is the sampler's own note on the server's CPU, if any.
func cpuNote(srv *results.Server) string {
	for _, n := range srv.Notes {
		if strings.Contains(n, "reading it from the operating system failed") {
			_, why, _ := strings.Cut(n, "failed: ")
			return " (reading /proc failed: " + why + ")"
		}
	}
	return ""
}

// CalibrationPolicy finds the load level at which the server's CPU sits
// at Target: within Tolerance (a share of the cores) of it. Below the
// target and above none measured it doubles the highest level, above and
// below none it halves the lowest, and between the two it interpolates
// linearly on the CPU measured at the levels around the target.
type CalibrationPolicy struct {
	Target    float64 // share of the server's cores, 0..1
	Tolerance float64 // share of the cores
	Whole     bool    // levels are whole numbers (workers, sessions)
	MaxPoints int
}

// DefaultCalibration is --target-server-cpu's rule.
func DefaultCalibration(target float64, whole bool) CalibrationPolicy {
	return CalibrationPolicy{Target: target, Tolerance: 0.05, Whole: whole, MaxPoints: 12}
}

// CalibrationDecision is the next level to measure, or the end.
type CalibrationDecision struct {
	Level float64
	Done  bool
	Best  int // with Done: the index of the point nearest the target
	// Plateau: more load no longer raised the server's CPU, below the
	// target: something else (the client, a lock, the disk) limits first.
	Plateau bool
}

// Next decides from the points measured so far.
func (p CalibrationPolicy) Next(points []results.CalibrationPoint) CalibrationDecision {
	best := nearest(points, p.Target)
	if best >= 0 && math.Abs(points[best].CPU-p.Target) <= p.Tolerance || len(points) >= p.MaxPoints {
		return CalibrationDecision{Done: true, Best: best}
	}
	lo, hi := -1, -1 // the highest level below the target, the lowest above
	for i, pt := range points {
		if pt.CPU < p.Target && (lo < 0 || pt.Level > points[lo].Level) {
			lo = i
		}
		if pt.CPU > p.Target && (hi < 0 || pt.Level < points[hi].Level) {
			hi = i
		}
	}
	var next float64
	switch {
	case hi < 0:
		if below := highestBelow(points, lo); below >= 0 && points[lo].CPU < points[below].CPU+p.Tolerance/2 {
			return CalibrationDecision{Done: true, Best: best, Plateau: true} // doubling the load bought no CPU
		}
		next = points[lo].Level * 2
	case lo < 0:
		next = points[hi].Level / 2
	case points[lo].Level >= points[hi].Level: // noise: more load, less CPU
		return CalibrationDecision{Done: true, Best: best}
	default:
		a, b := points[lo], points[hi]
		next = a.Level + (p.Target-a.CPU)*(b.Level-a.Level)/(b.CPU-a.CPU)
	}
	next = p.round(next)
	for _, pt := range points {
		if pt.Level == next || next <= 0 {
			return CalibrationDecision{Done: true, Best: best} // no level left between them
		}
	}
	return CalibrationDecision{Level: next}
}

// highestBelow is the point of the highest level below point i's, -1 if none.
func highestBelow(points []results.CalibrationPoint, i int) int {
	out := -1
	for j, pt := range points {
		if pt.Level < points[i].Level && (out < 0 || pt.Level > points[out].Level) {
			out = j
		}
	}
	return out
}

func (p CalibrationPolicy) round(l float64) float64 {
	if p.Whole {
		return math.Max(1, math.Round(l))
	}
	if l >= 20 {
		return math.Round(l)
	}
	return math.Round(l*100) / 100
}

func nearest(points []results.CalibrationPoint, target float64) int {
	best := -1
	for i, pt := range points {
		if best < 0 || math.Abs(pt.CPU-target) < math.Abs(points[best].CPU-target) {
			best = i
		}
	}
	return best
}

// LevelFunc measures one run at a load level and returns its result.
type LevelFunc func(ctx context.Context, level float64) (*results.Result, error)

// Calibrate finds the level of param at which the server's CPU sits at
// the policy's target, starting from the results already measured (a
// sweep's steps, a search's probes; nil entries are skipped) and
// measuring more through run.
func Calibrate(ctx context.Context, p CalibrationPolicy, param string, seed map[float64]*results.Result, run LevelFunc) (*results.Calibration, error) {
	c := &results.Calibration{Target: p.Target, Parameter: param, Points: []results.CalibrationPoint{}}
	add := func(level float64, res *results.Result) error {
		share, cores, src, err := ServerCPU(res)
		if err != nil {
			return err
		}
		c.Cores, c.Source = cores, src
		pt := results.CalibrationPoint{Level: level, CPU: round4(share), Throughput: res.Totals.Throughput, From: res.StartedAt, To: res.EndedAt}
		if in := res.Interference; in != nil {
			other, _ := in.Judged()
			pt.Interference = &other
		}
		c.Points = append(c.Points, pt)
		return nil
	}
	for _, l := range sortedLevels(seed) {
		if err := add(l, seed[l]); err != nil {
			return nil, err
		}
	}
	if len(c.Points) == 0 {
		return nil, errors.New("calibration: nothing measured to start from")
	}
	for {
		d := p.Next(c.Points)
		if d.Done {
			b := c.Points[d.Best]
			c.Level, c.Measured, c.Throughput = b.Level, b.CPU, b.Throughput
			c.Within = math.Abs(b.CPU-p.Target) <= p.Tolerance
			switch {
			case d.Plateau:
				c.Note = fmt.Sprintf("the server's CPU stopped rising at about %.0f%% of its cores: doubling the load bought no more, so the target is out of reach with this client; something else limits first (the client, the server's locks or disk)", 100*b.CPU)
			case !c.Within:
				c.Note = fmt.Sprintf("no level measured put the server's CPU within %.0f points of the target; the nearest is given", 100*p.Tolerance)
			}
			return c, nil
		}
		res, err := run(ctx, d.Level)
		if err != nil {
			return c, err
		}
		if err := add(d.Level, res); err != nil {
			return c, err
		}
	}
}

func sortedLevels(m map[float64]*results.Result) []float64 {
	var out []float64
	for l, r := range m {
		if r != nil {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

func round4(x float64) float64 { return math.Round(x*10000) / 10000 }
