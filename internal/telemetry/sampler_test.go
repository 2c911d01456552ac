package telemetry

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// fakeServer counts every command it receives in opcounters.command after
// answering, as a server does, and serves 100 queries between calls.
type fakeServer struct {
	mu       sync.Mutex
	commands int64
	queries  int64
	calls    int
	failAt   map[int]bool // serverStatus calls (1-based) that fail
	repl     error
}

func (f *fakeServer) ServerStatus(context.Context) (bson.Raw, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	defer func() { f.commands++ }()
	if f.failAt[f.calls] {
		return nil, errors.New("boom")
	}
	f.queries += 100
	return bson.Marshal(bson.D{
		{Key: "host", Value: "fake:1"}, {Key: "uptimeMillis", Value: int64(1000 + f.calls)},
		{Key: "opcounters", Value: bson.D{{Key: "query", Value: f.queries}, {Key: "command", Value: f.commands}}},
		{Key: "connections", Value: bson.D{{Key: "current", Value: int32(2)}, {Key: "available", Value: int32(98)}}},
	})
}

// waitCalls waits until n serverStatus calls were made (the baseline is
// the first), so tests do not depend on the machine's speed.
func (f *fakeServer) waitCalls(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		f.mu.Lock()
		c := f.calls
		f.mu.Unlock()
		if c >= n {
			return
		}
	}
	t.Fatalf("fewer than %d serverStatus calls in 10s", n)
}

func (f *fakeServer) ReplSetGetStatus(context.Context) (bson.Raw, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.commands++
	if f.repl != nil {
		return nil, f.repl
	}
	return bson.Marshal(bson.D{{Key: "members", Value: bson.A{
		bson.D{{Key: "name", Value: "a"}, {Key: "stateStr", Value: "PRIMARY"}, {Key: "optimeDate", Value: t0.Add(time.Second)}},
		bson.D{{Key: "name", Value: "b"}, {Key: "stateStr", Value: "SECONDARY"}, {Key: "optimeDate", Value: t0}},
	}}})
}

// TestSamplerCountsItsOwnCommands protects the cross-check's baseline: the
// sampler knows exactly how many of the server's commands were its own, so
// a server running nothing else matches to the command.
func TestSamplerCountsItsOwnCommands(t *testing.T) {
	for _, tt := range []struct {
		name string
		repl error
	}{
		{"with replSetGetStatus", nil}, // two commands per sample
		{"standalone", errors.New("(NoReplicationEnabled) not running with --replSet")}, // one, after the first failure
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeServer{repl: tt.repl}
			var mu sync.Mutex
			var seen []results.ServerSample
			s := NewSampler(f, Options{Interval: 15 * time.Millisecond, OnSample: func(x results.ServerSample) {
				mu.Lock()
				seen = append(seen, x)
				mu.Unlock()
			}})
			s.Start()
			f.waitCalls(t, 4)
			s.Stop()
			res := s.Result(&ClientSide{Ops: []ClientOp{{Name: "q", Type: "find", Count: f.queries - 100}}, Duration: 80 * time.Millisecond})
			if res.Unavailable != "" || len(res.Samples) < 3 || len(seen) != len(res.Samples) {
				t.Fatalf("unavailable %q, %d samples, %d seen", res.Unavailable, len(res.Samples), len(seen))
			}
			if !slices.IsSortedFunc(res.Samples, func(a, b results.ServerSample) int { return int(1000 * (a.T - b.T)) }) || res.Samples[0].T <= 0 {
				t.Errorf("sample times not increasing from the start: %v", res.Samples)
			}
			cc := res.CrossCheck
			if cc == nil || !cc.OK {
				t.Fatalf("cross-check %+v", cc)
			}
			for _, r := range cc.Rows {
				if r.Server != r.Expected+r.Own {
					t.Errorf("%s: server %d, expected %d + own %d", r.Counter, r.Server, r.Expected, r.Own)
				}
			}
			lagged := res.Samples[0].Replication != nil
			if lagged != (tt.repl == nil) || slices.Contains(res.Absent, "replication") == (tt.repl == nil) {
				t.Errorf("replication %v, absent %v", res.Samples[0].Replication, res.Absent)
			}
			if tt.repl != nil && !strings.Contains(strings.Join(res.Notes, "\n"), "NoReplicationEnabled") {
				t.Errorf("notes do not say why lag is absent: %v", res.Notes)
			}
			if !slices.Contains(res.Absent, "cache.bytesInUse") || slices.Contains(res.Absent, "opcounters.query") {
				t.Errorf("absent %v", res.Absent)
			}
		})
	}
}

// TestSamplerFailures: a server that never answers, a failed sample, a
// failed final sample and a run that never reached its measured phase are
// all reported, never turned into zeros.
func TestSamplerFailures(t *testing.T) {
	tests := []struct {
		name   string
		failAt map[int]bool
		calls  int    // serverStatus calls to wait for before stopping; 0: never start
		want   string // in Unavailable or the notes
		check  bool   // a cross-check is made
	}{
		{"never started", nil, 0, "the measured phase never began", false},              // stopped in the warm-up
		{"baseline fails", map[int]bool{1: true}, 1, "serverStatus: boom", false},       // no permission, say
		{"one sample fails", map[int]bool{2: true}, 3, "1 of the samples failed", true}, // a longer interval
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeServer{failAt: tt.failAt, repl: errors.New("no")}
			s := NewSampler(f, Options{Interval: 15 * time.Millisecond})
			if tt.calls > 0 {
				s.Start()
				f.waitCalls(t, tt.calls)
			}
			s.Stop()
			res := s.Result(&ClientSide{})
			all := res.Unavailable + "\n" + strings.Join(res.Notes, "\n")
			if !strings.Contains(all, tt.want) || (res.CrossCheck != nil) != tt.check {
				t.Errorf("unavailable %q, notes %v, cross-check %v", res.Unavailable, res.Notes, res.CrossCheck)
			}
		})
	}
}

// TestSamplerFinalSampleFails: without the final sample the server's counts
// stop early, so there is no cross-check, and the notes say so.
func TestSamplerFinalSampleFails(t *testing.T) {
	// No tick in an hour: the baseline is the first serverStatus call and
	// the final sample, whenever Stop comes, the second.
	f := &fakeServer{repl: errors.New("no"), failAt: map[int]bool{2: true}}
	s := NewSampler(f, Options{Interval: time.Hour})
	s.Start()
	s.Stop()
	res := s.Result(&ClientSide{})
	if f.calls != 2 || len(res.Samples) != 0 || res.Unavailable != "" {
		t.Fatalf("%d serverStatus calls, %d samples, unavailable %q: want the baseline and a failed final sample", f.calls, len(res.Samples), res.Unavailable)
	}
	if res.CrossCheck != nil || !strings.Contains(strings.Join(res.Notes, "\n"), "final sample failed") {
		t.Errorf("cross-check %v, notes %v", res.CrossCheck, res.Notes)
	}
}

// stuckServer answers like fakeServer until its stuckAt-th serverStatus,
// which waits for release whatever its context says: a frozen server.
type stuckServer struct {
	fakeServer
	stuckAt int32
	calls   atomic.Int32
	reached chan struct{}
	release chan struct{}
}

func (s *stuckServer) ServerStatus(ctx context.Context) (bson.Raw, error) {
	if s.calls.Add(1) == s.stuckAt {
		close(s.reached)
		<-s.release
	}
	return s.fakeServer.ServerStatus(ctx)
}

// TestSamplerResultWhileStuck protects Result from the sampling goroutine:
// when Stop gives up on a server that does not answer, the goroutine may
// still append a sample, so Result hands back none of them (read under the
// race detector, the samples slice was shared) and says why.
func TestSamplerResultWhileStuck(t *testing.T) {
	f := &stuckServer{stuckAt: 3, reached: make(chan struct{}), release: make(chan struct{})}
	defer close(f.release)
	s := NewSampler(f, Options{Interval: 5 * time.Millisecond, Timeout: 5 * time.Millisecond})
	s.Start()
	<-f.reached // the baseline and one sample were taken; the third call hangs
	s.Stop()
	res := s.Result(&ClientSide{})
	if !strings.Contains(res.Unavailable, "did not answer in time") || len(res.Samples) != 0 {
		t.Errorf("unavailable %q with %d samples, want 'did not answer in time' and none", res.Unavailable, len(res.Samples))
	}
}
