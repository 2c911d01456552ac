package engine

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/engine/enginetest"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/workload"
)

// TestServiceTimeFromReplySent: service time runs from the send the
// executor replies with, else from when the engine called it. The oracle is
// the executor's own sleeps: it waits wait before its "send", then reply
// after it, so every operation's response time exceeds its service time by
// at least wait when the send is reported, and its service time is at
// least wait+reply when it is not.
func TestServiceTimeFromReplySent(t *testing.T) {
	const wait, reply = 20 * time.Millisecond, 2 * time.Millisecond
	for _, reported := range []bool{true, false} {
		ex := enginetest.Func(func(ctx context.Context, _ *workload.Request) (workload.Reply, error) {
			time.Sleep(wait)
			sent := time.Now()
			time.Sleep(reply)
			rep := workload.Reply{Docs: metrics.Docs{Returned: 1, Shaped: 1}}
			if reported {
				rep.Sent = sent
			}
			return rep, nil
		})
		res, _ := runModel(t, ex, Options{Model: Sessions, Sessions: 2, ThinkTime: time.Millisecond, Operations: 40})
		op := res.Totals.Op(0)
		if op.Count() == 0 || op.Service == nil {
			t.Fatalf("reported=%v: %d operations, service histogram %v", reported, op.Count(), op.Service)
		}
		lat, svc := op.Latency.Mean()*1000, op.Service.Mean()*1000 // ns
		switch {
		case reported && time.Duration(lat-svc) < wait-time.Millisecond:
			t.Errorf("send reported: mean response %v, service %v; want them %v apart at least", time.Duration(lat), time.Duration(svc), wait)
		case !reported && time.Duration(svc) < wait+reply-time.Millisecond:
			t.Errorf("no send reported: mean service %v, want %v at least (from the engine's call)", time.Duration(svc), wait+reply)
		}
	}
}

// TestRetriedFromReplyFailed: a successful operation whose reply counts
// failed commands was retried by the driver, counted apart for reads and
// writes; a failed operation is an error, never a retry. The oracle is the
// executor's own count of the successes it replied with failed commands.
func TestRetriedFromReplyFailed(t *testing.T) {
	var calls, reads, writes atomic.Int64
	ex := enginetest.Func(func(ctx context.Context, r *workload.Request) (workload.Reply, error) {
		n := calls.Add(1)
		switch {
		case n%7 == 0:
			return workload.Reply{Failed: 2}, errors.New("boom")
		case n%3 != 0:
			return workload.Reply{Docs: metrics.Docs{Inserted: 1}}, nil
		case r.Op.Kind.Writes():
			writes.Add(1)
		default:
			reads.Add(1)
		}
		return workload.Reply{Docs: metrics.Docs{Inserted: 1}, Failed: 1}, nil
	})
	res, _ := runWith(t, context.Background(), ex, Options{Concurrency: 3, Operations: 2000})
	var gotReads, gotWrites int64
	for i := range res.Totals.Len() {
		o := res.Totals.Op(i).Outcomes
		gotReads += o[metrics.RetriedRead]
		gotWrites += o[metrics.RetriedWrite]
	}
	if gotReads != reads.Load() || gotWrites != writes.Load() || reads.Load() == 0 || writes.Load() == 0 {
		t.Fatalf("retried reads %d, writes %d; the executor replied %d and %d", gotReads, gotWrites, reads.Load(), writes.Load())
	}
}
