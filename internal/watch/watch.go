// Package watch runs a workload's change-stream consumers (watchers)
// beside its operations and measures what a consumer sees: the events its
// streams receive and each event's delivery lag, from the commit (or a
// date the workload wrote into the document) to the moment it is read.
// Streams are opened before the measured phase, read for its length, and
// drained after it until they have delivered the run's last writes. It
// imports no driver: streams come from an Opener (internal/mongodb's).
package watch

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// Stream is one open change stream. Next returns the next event, or ok
// false when one wait for events ended without any (the stream is caught
// up); it resumes after errors itself and fails only when ctx ends or on
// an error no resume can get past (the stream is then done).
type Stream interface {
	Next(ctx context.Context) (ev workload.ChangeEvent, ok bool, err error)
	Resumes() int64
	Close(ctx context.Context)
}

// Opener opens one stream of a watcher.
type Opener func(ctx context.Context, w *workload.Watcher) (Stream, error)

// DrainLimit bounds the wait, after the measured phase, for the streams
// to deliver the run's last writes: a consumer further behind than this
// is reported undrained (and falling behind).
const DrainLimit = 15 * time.Second

// Set is the run's watchers, their streams open and read.
type Set struct {
	ws      []*watcher
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	drainAt atomic.Int64 // UnixNano when the measured phase ended; 0 before
	now     func() time.Time
	onFail  func(error)
}

// Open opens every stream of every watcher and starts reading them; the
// events before Measure are not counted. A stream that cannot open fails
// the whole set (closed again), before the run. onFail hears, once per
// watcher, the error that ended one of its streams while they were read.
func Open(ctx context.Context, specs []*workload.Watcher, open Opener, onFail func(error)) (*Set, error) {
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &Set{cancel: cancel, now: time.Now, onFail: onFail}
	for _, spec := range specs {
		w := newWatcher(spec)
		s.ws = append(s.ws, w)
		for range spec.Streams {
			st, err := open(ctx, spec)
			if err != nil {
				s.close()
				return nil, err
			}
			w.streams = append(w.streams, st)
		}
	}
	for _, w := range s.ws {
		for _, st := range w.streams {
			s.wg.Add(1)
			go s.read(sctx, w, st)
		}
	}
	return s, nil
}

// read consumes one stream until the drain after the run found it caught
// up (an empty wait that began after the end), or the set is closed.
func (s *Set) read(ctx context.Context, w *watcher, st Stream) {
	defer s.wg.Done()
	for {
		began := s.now().UnixNano()
		ev, ok, err := st.Next(ctx)
		if err != nil {
			if ctx.Err() == nil && w.fail(err) && s.onFail != nil {
				s.onFail(err)
			}
			return
		}
		if ok {
			w.record(ev, s.now(), s.drainAt.Load() != 0)
			continue
		}
		if d := s.drainAt.Load(); d != 0 && began >= d {
			return
		}
	}
}

// Measure starts the measured phase: what the streams received before
// (the warm-up's events) is forgotten.
func (s *Set) Measure() {
	for _, w := range s.ws {
		w.reset()
	}
}

// Interval returns each watcher's events and lag since the last call.
func (s *Set) Interval() []results.WatcherInterval {
	out := make([]results.WatcherInterval, 0, len(s.ws))
	for _, w := range s.ws {
		out = append(out, w.interval())
	}
	return out
}

// Streams is how many streams the set holds open: each holds a connection.
func (s *Set) Streams() int {
	n := 0
	for _, w := range s.ws {
		n += len(w.streams)
	}
	return n
}

// Stop ends the watchers after the measured phase: each stream reads on
// until it has delivered what the server had when the phase ended (an
// empty wait begun after that), within DrainLimit; then every stream is
// closed. seconds is the measured phase's length. A ctx that ends first
// (an interrupt) cuts the drain short: the watchers are undrained, with
// no verdict on their pace (they were not given the time to catch up),
// and cut says so.
func (s *Set) Stop(ctx context.Context, seconds float64) (ws []results.Watcher, cut bool) {
	s.drainAt.Store(s.now().UnixNano())
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	timer := time.NewTimer(DrainLimit)
	defer timer.Stop()
	undrained := false
	select {
	case <-done:
	case <-timer.C:
		undrained = true
	case <-ctx.Done():
		cut = true
	}
	s.close()
	out := make([]results.Watcher, 0, len(s.ws))
	for _, w := range s.ws {
		out = append(out, w.result(seconds, undrained, cut))
	}
	return out, cut
}

// Close closes every stream at once, without the drain (a run that
// ended before its result).
func (s *Set) Close() { s.close() }

// close stops the readers and closes the streams.
func (s *Set) close() {
	s.cancel()
	s.wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, w := range s.ws {
		for _, st := range w.streams {
			st.Close(ctx)
		}
	}
}

// lagFrom says what a watcher's lag is measured from.
func lagFrom(spec *workload.Watcher) string {
	if spec.LagField != "" {
		return fmt.Sprintf("field %s", spec.LagField)
	}
	return "commit"
}
