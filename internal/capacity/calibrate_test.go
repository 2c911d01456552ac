package capacity

import (
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

func pt(level, cpu float64) results.CalibrationPoint {
	return results.CalibrationPoint{Level: level, CPU: cpu}
}

// TestCalibrationNext protects the calibration's rule: double below the
// target, halve above it, interpolate between, stop within the tolerance
// or when no level is left between the two around the target.
func TestCalibrationNext(t *testing.T) {
	p := CalibrationPolicy{Target: 0.8, Tolerance: 0.05, Whole: true, MaxPoints: 6}
	tests := []struct {
		name   string
		points []results.CalibrationPoint
		want   CalibrationDecision
	}{
		// everything below the target: double the highest level
		{"climb", []results.CalibrationPoint{pt(4, 0.2), pt(8, 0.4)}, CalibrationDecision{Level: 16}},
		// doubling bought less than half the tolerance of CPU: a plateau below the target
		{"plateau", []results.CalibrationPoint{pt(4, 0.4), pt(8, 0.42)}, CalibrationDecision{Done: true, Best: 1, Plateau: true}},
		// everything above: halve the lowest
		{"descend", []results.CalibrationPoint{pt(16, 0.95)}, CalibrationDecision{Level: 8}},
		// between 8 (40%) and 16 (100%): 8 + (0.8-0.4)*8/0.6 = 13.33 -> 13 workers
		{"interpolate", []results.CalibrationPoint{pt(8, 0.4), pt(16, 1.0)}, CalibrationDecision{Level: 13}},
		// within 5 points: done at the nearest
		{"within", []results.CalibrationPoint{pt(8, 0.4), pt(16, 1.0), pt(13, 0.77)}, CalibrationDecision{Done: true, Best: 2}},
		// no whole level left between 12 and 13: done at the nearest
		{"no level left", []results.CalibrationPoint{pt(12, 0.7), pt(13, 0.92)}, CalibrationDecision{Done: true, Best: 0}},
		// more load measured less CPU (noise): stop at the nearest
		{"noise", []results.CalibrationPoint{pt(8, 0.9), pt(16, 0.5)}, CalibrationDecision{Done: true, Best: 0}},
		// the budget ends it
		{"budget", []results.CalibrationPoint{pt(1, 0.1), pt(2, 0.15), pt(4, 0.2), pt(8, 0.3), pt(16, 0.4), pt(32, 0.5)}, CalibrationDecision{Done: true, Best: 5}},
	}
	for _, tt := range tests {
		if got := p.Next(tt.points); got != tt.want {
			t.Errorf("%s: Next = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	// rates keep hundredths below 20 ops/s
	r := CalibrationPolicy{Target: 0.5, Tolerance: 0.01, MaxPoints: 6}
	if got := r.Next([]results.CalibrationPoint{pt(10, 0.4), pt(11, 0.6)}); got.Level != 10.5 {
		t.Errorf("rate interpolation: %+v, want 10.5", got)
	}
}

// TestServerCPUNamesWhatIsMissing: without the server's CPU a calibration
// cannot run, and the error names what is missing; with it, the share is
// the cores busy over the server's cores.
func TestServerCPUNamesWhatIsMissing(t *testing.T) {
	cores := int64(4)
	busy := 1.0
	withCPU := resultstest.Result(results.LoadModel{Type: results.Closed, Concurrency: 4}, resultstest.Step{Level: 4, Throughput: 100, LatencyMs: 1,
		Server: resultstest.ServerSample(0.5, 0.01, &busy)}, resultstest.T0, "")
	withCPU.Context = &results.ServerContext{Host: &results.HostFacts{Cores: &cores}}
	withCPU.Server.CPUSource = "serverStatus"
	share, n, src, err := ServerCPU(withCPU)
	if err != nil || n != 4 || src != "serverStatus" || share < 0.249 || share > 0.251 {
		t.Errorf("ServerCPU = %v, %d, %q, %v; want 25%% of 4 cores from serverStatus", share, n, src, err)
	}
	noCPU := resultstest.Result(results.LoadModel{Type: results.Closed, Concurrency: 4}, resultstest.Step{Level: 4, Throughput: 100, LatencyMs: 1,
		Server: resultstest.ServerSample(0.5, 0.01, nil)}, resultstest.T0, "")
	noCores := *withCPU
	noCores.Context = &results.ServerContext{}
	noTelemetry := *withCPU
	noTelemetry.Server = nil
	for _, tt := range []struct {
		name string
		res  *results.Result
		want string
	}{
		{"no CPU", noCPU, "serverStatus.extra_info reports no user_time_us/system_time_us, and it cannot be read from the operating system, which needs the server on this host (a loopback --uri) and its pid in serverStatus"},
		{"no cores", &noCores, "hostInfo did not report the server's cores"},
		{"no telemetry", &noTelemetry, "no server telemetry"},
	} {
		if _, _, _, err := ServerCPU(tt.res); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
