package cli

import (
	"context"
	"path/filepath"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"strconv"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestRunAppliesMemoryPolicy: the run's collector setting is recorded in
// the results, sized from the run unless the user set it (a flag, or Go's
// own GOGC in the environment), and it is what the runtime ran under: read
// back from the runtime itself while the run is measuring (the first
// interval seen by a sink); after the run the process has its own back.
func TestRunAppliesMemoryPolicy(t *testing.T) {
	uri := testserver.URI(t)
	oldLimit, oldGC := debug.SetMemoryLimit(-1), debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetMemoryLimit(oldLimit); debug.SetGCPercent(oldGC) })
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want results.MemoryPolicy // LimitBytes 0: sized, checked against the runtime only
	}{
		{"sized", nil, nil, results.MemoryPolicy{LimitFrom: "sized", GOGCFrom: "sized"}},
		{"set by flag and GOGC", map[string]string{"GOGC": "150"}, []string{"--memory-limit", "200MiB"},
			results.MemoryPolicy{LimitBytes: 200 << 20, Limit: "200MiB", GOGC: "150", LimitFrom: "set", GOGCFrom: "set"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.json")
			args := append([]string{"run", "--uri", uri, "--duration", "300ms", "--warmup", "0s", "--concurrency", "3", "--out", out, "--drop", "--quiet"}, tc.args...)
			stop, seen := make(chan struct{}), make(chan [2]int64)
			go func() { seen <- watchCollector(stop, 100, oldLimit) }()
			code, stdout, stderr := runCLI(t, context.Background(), tc.env, args...)
			close(stop)
			during := <-seen
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			res, err := results.ReadJSON(out)
			if err != nil {
				t.Fatal(err)
			}
			m := res.Client.Memory
			if m == nil {
				t.Fatal("no memoryPolicy in the results")
			}
			if m.LimitBytes != during[1] || m.GOGC != strconv.FormatInt(during[0], 10) {
				t.Errorf("recorded %+v, the runtime ran under limit %d GOGC %d", m, during[1], during[0])
			}
			if limit, gc := debug.SetMemoryLimit(-1), debug.SetGCPercent(100); limit != oldLimit || gc != 100 {
				t.Errorf("after the run: limit %d GOGC %d, want the process's own back (%d, 100)", limit, gc, oldLimit)
			}
			if m.LimitFrom != tc.want.LimitFrom || m.GOGCFrom != tc.want.GOGCFrom {
				t.Errorf("recorded %+v, want from %s/%s", m, tc.want.LimitFrom, tc.want.GOGCFrom)
			}
			if tc.want.LimitBytes != 0 && *m != tc.want {
				t.Errorf("recorded %+v, want %+v", *m, tc.want)
			}
			if tc.want.LimitBytes == 0 && (m.LimitBytes < 48<<20 || m.LimitBytes > 96<<20) {
				t.Errorf("sized limit %d for 3 workers: want the margin (48 MiB) and at most 96 MiB", m.LimitBytes)
			}
		})
	}
}

// watchCollector reads the runtime's GOGC and memory limit (runtime/metrics,
// which reads without setting) every millisecond until stop, and returns
// the last pair seen that differs from the process's own (gogc, limit).
func watchCollector(stop <-chan struct{}, gogc, limit int64) [2]int64 {
	var last [2]int64
	s := []rtmetrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	for {
		rtmetrics.Read(s)
		if g, l := int64(s[0].Value.Uint64()), int64(s[1].Value.Uint64()); g != gogc || l != limit {
			last = [2]int64{g, l}
		}
		select {
		case <-stop:
			return last
		case <-time.After(time.Millisecond):
		}
	}
}
