package ab

import (
	"time"

	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/replay"
	"github.com/mongoload/mongoload/internal/results"
)

// roundFeed is a side's arrival source over its rounds: each measured run
// replays the trace from its start (a fresh replay.Feed), at the captured
// pace divided by the speed, and each connection keeps its order.
type roundFeed struct {
	t        *replay.Trace
	pace     replay.Pace
	interval time.Duration
	cur      *replay.Feed
	err      error
}

func newRoundFeed(t *replay.Trace, p replay.Pace, interval time.Duration) *roundFeed {
	f := &roundFeed{t: t, pace: p, interval: interval}
	f.next()
	return f
}

// next opens the next round's pass over the trace, once the last has
// ended (Complete): the engine is done with it then.
func (f *roundFeed) next() {
	if f.cur != nil {
		f.cur.Close()
	}
	f.cur, f.err = f.t.Feed(f.pace, replay.NewLag(f.interval))
	if f.err != nil {
		f.cur = nil
	}
}

// Next is engine.Feed's: nothing when the trace could not be opened again.
func (f *roundFeed) Next() (*engine.Fed, bool) {
	if f.cur == nil {
		return nil, false
	}
	return f.cur.Next()
}

// Load is run.Arrivals'.
func (f *roundFeed) Load() (string, int) {
	return "the trace from its start at speed " + f.pace.SpeedText(), f.pace.MaxInFlight
}

// SendLag is run.Arrivals'.
func (f *roundFeed) SendLag(d time.Duration) {
	if f.cur != nil {
		f.cur.SendLag(d)
	}
}

// Complete is run.Arrivals': the replay's section of this round's result,
// then the next round's pass.
func (f *roundFeed) Complete(res *results.Result) {
	if f.cur != nil {
		f.cur.Complete(res)
		if f.err == nil {
			f.err = f.cur.Err()
		}
	}
	f.next()
}
