package analysis

import (
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// result builds a 10s result: "read" (findOne) 1..1000ms, one sample each,
// and "write" (updateOne) 990 samples at 2ms with 10 errors.
func result(t *testing.T) *results.Result {
	t.Helper()
	rec := metrics.NewRecorder([]string{"read", "write"}, metrics.Options{})
	start := time.Now()
	rec.Reset(start)
	sh := rec.Shard(0)
	for ms := 1; ms <= 1000; ms++ {
		sh.Record(0, time.Duration(ms)*time.Millisecond)
	}
	for i := 0; i < 990; i++ {
		sh.Record(1, 2*time.Millisecond)
	}
	for i := 0; i < 10; i++ {
		sh.RecordError(1, "WriteConflict(112)")
	}
	tot := metrics.NewTotals(rec.Ops(), false)
	tot.Add(rec.Interval(start.Add(10 * time.Second)))
	return results.Build(results.RunInfo{OpTypes: map[string]string{"read": "findOne", "write": "updateOne"}}, tot, nil)
}

func TestCheck(t *testing.T) {
	res := result(t)
	tests := []struct {
		slo      string
		pass     bool
		measured float64
	}{
		{"read:p99<=1000ms", true, 990.5},    // the 99th of 1..1000ms, to HDR's 3 digits
		{"read:p99<=900ms", false, 990.5},    // too slow
		{"findOne:p50<600ms", true, 500},     // scope by operation type
		{"write:max<=2.01ms", true, 2},       // HDR reports the bucket's highest value
		{"throughput>=199", true, 199},       // (1000+990) successes / 10s
		{"throughput>=200", false, 199},      // short of the target
		{"write:throughput>=99", true, 99},   // per operation
		{"write:errors<=1%", true, 1},        // 10 of 1000 attempts
		{"write:errors<0.5%", false, 1},      // too many
		{"errors<=10", true, 10},             // a count over all operations
		{"read:errors<=0%", true, 0},         // none
		{"p99<=1000ms", true, 980},           // overall: both operations' samples together
		{"p50<=6ms", true, 5},                // overall median sits among the reads' fastest
		{"read:avg<=501ms", true, 500.5},     // the mean
		{"read:min<1.5ms", true, 1},          // the fastest
		{"read:p99.99<=1001", true, 1000.4},  // a bare number is milliseconds
		{"read:p99<=1000000us", true, 990.5}, // microseconds
		{"read:p99<=1s", true, 990.5},        // seconds
		{"write:p90>2ms", false, 2},          // equal is not greater
		{"nosuch:p99<=1ms", false, 0},        // a scope that matches nothing fails
		// shares: reads are 1..1000ms, one each, so under(Nms) counts N of 1000
		{"read:under(100ms)>=10%", true, 10},           // 1..100ms: 100 of 1000
		{"read:under(100ms)>10%", false, 10},           // exactly 10% is not more
		{"read:under(999ms)>=99.9%", true, 99.9},       // all but the 1000ms one
		{"read:under(1s)>=100%", true, 100},            // every read
		{"write:under(1ms)>=1%", false, 0},             // 2ms writes: none within 1ms
		{"under(2ms)>=49.8%", true, 100 * 992 / 1990.}, // overall: 990 writes and reads 1, 2ms, of 1990
	}
	for _, tt := range tests {
		v := verdictOf(t, res, tt.slo)
		if v.Pass != tt.pass {
			t.Errorf("%s: pass=%v (measured %.3f), want %v", tt.slo, v.Pass, v.Measured, tt.pass)
		}
		if !v.Missing && (v.Measured < tt.measured*0.99-0.01 || v.Measured > tt.measured*1.01+0.01) {
			t.Errorf("%s: measured %.3f, want about %.3f", tt.slo, v.Measured, tt.measured)
		}
	}
}

func TestParseObjectivesErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"p99", "no comparison"},            // no operator
		{"p99<=", "no value"},               // no value
		{"p99<=fast", "not a valid value"},  // not a duration
		{"latency<=2ms", "unknown metric"},  // not a metric
		{"pXX<=2ms", "not a percentile"},    // bad percentile
		{"p101<=2ms", "not a percentile"},   // out of range
		{"throughput>=lots", "not a valid"}, // not a number
		{"", "no objective"},                // empty
		{"errors<=x%", "not a valid value"}, // bad percent
		// Bounds outside a term's range (issue 25 #7): each passed every run.
		{"throughput>=-5", "out of its range"},
		{"errors<=150%", "out of its range"},
		{"p99<=-2ms", "out of its range"},
		{"errors<=-1", "out of its range"},
		{"throughput>=NaN", "finite"},
		{"p99<=Inf", "finite"},
		{"throughput>=0", "every run meets it"},
		{"errors<=100%", "every run meets it"},
		{"p99<0", "no run can meet it"},
		{"under(fast)>=99%", "latency bound"}, // the bound must be a latency
		{"under(0ms)>=99%", "latency bound"},  // and positive
		{"under(10ms)>=101%", "out of its range"},
		{"under(10ms)>=0%", "every run meets it"}, // a share is at most 100%
	}
	for _, tt := range tests {
		_, err := ParseObjectives(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseObjectives(%q) = %v, want an error containing %q", tt.in, err, tt.want)
		}
	}
}

// verdictOf parses one objective and checks it against res.
func verdictOf(t *testing.T, res *results.Result, slo string) Verdict {
	t.Helper()
	objs, err := ParseObjectives(slo)
	if err != nil {
		t.Fatalf("%s: %v", slo, err)
	}
	vs, err := Check(res, objs)
	if err != nil {
		t.Fatal(err)
	}
	return vs[0]
}
