package telemetry_test

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/telemetry"
	"github.com/mongoload/mongoload/internal/testserver"
)

func TestMain(m *testing.M) { testserver.Main(m) }

// TestSamplerAgainstTheServer samples the real test server over the
// telemetry connection: samples arrive every interval, what the server
// reports is there (opcounters, cache, connections, network), what it does
// not (tickets, CPU, replication lag in a one-member set) is listed absent
// with the reason, and the server counted at least the sampler's own
// commands. (The server may be shared with other tests, so no exact
// equality is asserted here; the unit tests do that.)
func TestSamplerAgainstTheServer(t *testing.T) {
	conn := config.Default().Connection
	conn.URI = testserver.URI(t)
	ctx := context.Background()
	cl, err := mongodb.Connect(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	mon, err := cl.Monitor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer mon.Close()

	var samples atomic.Int64
	s := telemetry.NewSampler(mon, telemetry.Options{Interval: 200 * time.Millisecond, OnSample: func(results.ServerSample) { samples.Add(1) }})
	s.Start()
	testserver.Await(t, time.Minute, "four samples", func() bool { return samples.Load() >= 4 })
	s.Stop()
	res := s.Result(&telemetry.ClientSide{Duration: time.Second})
	if res.Unavailable != "" || len(res.Samples) < 4 {
		t.Fatalf("unavailable %q, %d samples", res.Unavailable, len(res.Samples))
	}
	last := res.Samples[len(res.Samples)-1]
	if last.Opcounters == nil || last.Cache == nil || last.Cache.MaxBytes == nil || last.Connections == nil || last.Network == nil || last.OpLatencies == nil {
		t.Errorf("last sample lacks what the server reports: %+v", last)
	}
	for _, f := range []string{"tickets.readAvailable", "cpu.userSeconds", "replication"} {
		if !slices.Contains(res.Absent, f) {
			t.Errorf("%s not listed absent: %v", f, res.Absent)
		}
	}
	if slices.Contains(res.Absent, "opcounters.command") || slices.Contains(res.Absent, "cache.bytesInUse") {
		t.Errorf("reported fields listed absent: %v", res.Absent)
	}
	notes := strings.Join(res.Notes, "\n")
	if !strings.Contains(notes, "no secondaries") || !strings.Contains(notes, "server CPU is absent") {
		t.Errorf("notes do not explain what is absent:\n%s", notes)
	}
	if res.Host == "" || res.Version == "" || res.CrossCheck == nil {
		t.Fatalf("host %q version %q cross-check %v", res.Host, res.Version, res.CrossCheck)
	}
	for _, r := range res.CrossCheck.Rows {
		t.Logf("%-8s expected %d own %d server %d tolerance %d: %s", r.Counter, r.Expected, r.Own, r.Server, r.Tolerance, r.Status)
		if r.Counter == "command" && (r.Own < int64(len(res.Samples)) || r.Server < r.Own) {
			t.Errorf("command: server %d, own %d for %d samples", r.Server, r.Own, len(res.Samples))
		}
	}
}
