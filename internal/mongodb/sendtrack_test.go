package mongodb

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/workload"
)

// TestReplyCarriesSendAndFailures: what the command monitor saw reaches the
// caller in Do's Reply, per operation. The oracles: a tracked send lies
// between the caller's clock readings around Do (and there is none when
// sends are not tracked); a filter the server refuses is exactly one failed
// command (the error says the server refused it), and the next operation
// starts again from none.
func TestReplyCarriesSendAndFailures(t *testing.T) {
	uri := testserver.URI(t)
	p, _ := plan(t, "")
	for _, tracks := range []bool{false, true} {
		cl, err := Connect(context.Background(), config.Connection{URI: uri}, ConnectOptions{TrackSends: tracks})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		if _, err := cl.Prepare(context.Background(), p, SetupOptions{Create: true}); err != nil {
			t.Fatal(err)
		}
		execs, err := cl.Executors(p)
		if err != nil {
			t.Fatal(err)
		}
		get := execs[1]
		var req workload.Request
		req.Build(p.Ops[1], newState())
		before := time.Now()
		rep, err := get.Do(context.Background(), &req)
		after := time.Now()
		req.Release()
		switch {
		case err != nil:
			t.Fatal(err)
		case tracks && (rep.Sent.Before(before) || rep.Sent.After(after)):
			t.Errorf("tracked send at %v, outside Do's [%v, %v]", rep.Sent, before, after)
		case !tracks && !rep.Sent.IsZero():
			t.Errorf("untracked send reported at %v", rep.Sent)
		case rep.Failed != 0:
			t.Errorf("a successful find reports %d failed commands", rep.Failed)
		}
		bad, _ := bson.Marshal(bson.D{{Key: "k", Value: bson.D{{Key: "$noSuchOperator", Value: 1}}}})
		rep, err = get.Do(context.Background(), &workload.Request{Op: p.Ops[1], Filter: bad})
		if _, _, refused := serverCode(err); !refused || rep.Failed != 1 {
			t.Errorf("track=%v: refused filter: err %v, %d failed commands; want a server error and 1", tracks, err, rep.Failed)
		}
		req.Build(p.Ops[1], newState())
		rep, err = get.Do(context.Background(), &req)
		req.Release()
		if err != nil || rep.Failed != 0 {
			t.Errorf("track=%v: the next find: err %v, %d failed commands; want none", tracks, err, rep.Failed)
		}
	}
}

// TestTrackingAllocatesNothing: the send clock and the context carrying it
// are reused, so tracking costs no allocation per operation.
func TestTrackingAllocatesNothing(t *testing.T) {
	if testserver.Race {
		t.Skip("the race detector allocates (and drops pooled items)")
	}
	ctx := context.Background()
	track(ctx).done()
	if n := testing.AllocsPerRun(1000, func() { track(ctx).done() }); n != 0 {
		t.Fatalf("%.1f allocations per operation", n)
	}
}

// BenchmarkTrack is what Do adds to every operation to carry its send clock
// (a pooled clock and context): a few nanoseconds, no allocation.
//
//	go test -run '^$' -bench Track -benchmem ./internal/mongodb
func BenchmarkTrack(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		track(ctx).done()
	}
}
