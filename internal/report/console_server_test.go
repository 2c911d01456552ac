package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

func i64(v int64) *int64 { return &v }

// serverFixture is five 1 s samples of a server that reports cache,
// connections and network but no tickets, CPU or replication lag, and a
// cross-check with one counter flagged.
func serverFixture(ok bool) *results.Server {
	s := &results.Server{Host: "db1:27017", Process: "mongod", Version: "8.0.4", IntervalSeconds: 1,
		Absent:     []string{"tickets.readAvailable", "tickets.writeAvailable", "cpu.userSeconds", "cpu.systemSeconds", "replication"},
		Opcounters: &results.Opcounters{Query: i64(10_300), Insert: i64(4_120), Update: i64(8_850), Delete: i64(0), Command: i64(57), Getmore: i64(12)},
	}
	for k := range 5 {
		s.Samples = append(s.Samples, results.ServerSample{T: float64(k + 1), Dt: 1, At: resultstest.T0.Add(resultstest.Warmup + time.Duration(k+1)*time.Second),
			Cache:       &results.Cache{BytesInUse: i64(int64(200+k) << 20), DirtyBytes: i64(int64(k) << 20), MaxBytes: i64(256 << 20)},
			Connections: &results.Connections{Current: i64(int64(60 + k)), Available: i64(838_000)},
			Network:     &results.Network{BytesIn: i64(4_100_000), BytesOut: i64(9_800_000)},
		})
	}
	cc := &results.CrossCheck{Model: "mongod", OK: ok, Rows: []results.CrossCheckRow{
		{Counter: "query", Expected: 10_300, Server: 10_300, Tolerance: 231, Status: "ok", Ops: []string{"find_by_id"}},
		{Counter: "insert", Expected: 0, Server: 4_120, Tolerance: 0, Status: "more"},
		{Counter: "update", Expected: 8_850, Server: 8_850, Tolerance: 216, Status: "ok", Ops: []string{"update_seats"}},
		{Counter: "command", Own: 11, Server: 57, Tolerance: 64, Status: "ok"},
		{Counter: "getmore", Server: 12, Status: "info"},
	}}
	if ok {
		cc.Rows[1] = results.CrossCheckRow{Counter: "insert", Expected: 4_120, Server: 4_120, Tolerance: 169, Status: "ok", Ops: []string{"insert_booking"}}
	}
	s.CrossCheck = cc
	return s
}

// TestConsoleServerGolden protects the server section of the final report:
// the telemetry summary, what the server did not report, and the
// cross-check table with its verdict; a server without telemetry says why;
// a merged result names its files.
func TestConsoleServerGolden(t *testing.T) {
	withServer := resultstest.ClosedRun().Result()
	withServer.Server = serverFixture(false)

	unavailable := resultstest.ClosedRun().Result()
	unavailable.Server = &results.Server{IntervalSeconds: 1, Unavailable: "serverStatus: (Unauthorized) not authorized on admin to execute command", Samples: []results.ServerSample{}}

	merged := resultstest.OpenRun().Result()
	merged.Merged = &results.Merged{Sources: []results.MergedSource{
		{File: "p0.json", Kind: "results", Partition: "0/3"}, {File: "p1.json", Kind: "results", Partition: "1/3"}, {File: "p2.hlog", Kind: "hlog"},
	}}
	merged.Server = serverFixture(true)

	tests := []struct {
		name string
		res  *results.Result
	}{
		{"server.golden", withServer},       // a flagged counter: MISMATCH
		{"server-none.golden", unavailable}, // no permission for serverStatus
		{"merged.golden", merged},           // three files, everything agrees
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteConsole(&b, tt.res); err != nil {
				t.Fatal(err)
			}
			resultstest.Golden(t, tt.name, b.Bytes())
		})
	}
}
