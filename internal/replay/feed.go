package replay

import (
	"errors"
	"io"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// Plan is the replay's plan: one operation per shape (Trace.Shapes'
// order), each on the database it was sent to; every namespace the sent
// commands read, write into or alter is one of its collections, marked
// with what writes or alters it, and the ownership rule applies to each
// at setup (internal/mongodb), before anything is written: a write into
// a collection mongoload did not create is refused (exit 19) unless
// --allow-existing, an alteration always, but an index build with
// --create-indexes. An operation on a namespace of the server's own
// (admin.$cmd, a read of local.oplog.rs) runs there and is no collection
// of the plan: setup creates nothing there.
func (t *Trace) Plan() *workload.Plan {
	p := &workload.Plan{Name: "replay " + t.Path, Source: t.Path}
	cols := map[string]*workload.Collection{}
	for _, ns := range t.Namespaces {
		db, coll, _ := strings.Cut(ns.NS, ".")
		c := &workload.Collection{Database: db, Name: coll, Keys: generate.NewKeySpace(0, 0), Writes: ns.Writes > 0,
			WrittenBy: ns.WrittenBy, AlteredBy: ns.AlteredBy, IndexBuildsOnly: ns.Alters > 0 && ns.IndexBuildsOnly,
			LeaveMissing: ns.Reads == 0 && ns.Writes == 0}
		cols[ns.NS] = c
		p.Collections = append(p.Collections, c)
	}
	for _, sh := range t.Shapes {
		col := cols[sh.NS]
		if col == nil {
			db, coll, _ := strings.Cut(sh.NS, ".")
			col = &workload.Collection{Database: db, Name: coll, Keys: generate.NewKeySpace(0, 0)}
		}
		p.Ops = append(p.Ops, &workload.Op{Index: sh.Index, Name: sh.Name, Type: sh.Type, Kind: workload.Replay,
			Weight: float64(sh.Count), Collection: col, StaticOptions: true})
	}
	p.Mix = workload.NewMix(p.Ops)
	return p
}

// Feed hands the engine the trace's operations (engine.Feed), read a
// second time from the file as they fall due: at their captured start
// less the first's, divided by the speed (0: as fast as in-flight places
// allow), Loops times over.
type Feed struct {
	t      *Trace
	pace   Pace
	speed  float64
	loops  int
	loop   int
	period time.Duration // one pass, with one mean gap before the next
	r      *entries
	lanes  map[string]chan struct{} // each connection's last operation's Done
	err    error
	// lag has its clock started by the first Next: the engine asks for
	// the first operation as the measured phase starts.
	lag     *Lag
	started bool
}

// Feed opens the trace for a replay paced by p, its send lag recorded in
// lag. It is the run's arrival source (run.Arrivals).
func (t *Trace) Feed(p Pace, lag *Lag) (*Feed, error) {
	fd := &Feed{t: t, pace: p, speed: p.Speed, loops: max(p.Loops, 1), lanes: map[string]chan struct{}{}, lag: lag}
	if t.Sent > 1 {
		fd.period = t.Span() + t.Span()/time.Duration(t.Sent-1)
	}
	return fd, fd.open()
}

func (fd *Feed) open() error {
	if fd.r != nil {
		fd.r.Close()
	}
	r, err := openEntries(fd.t.Path)
	if err != nil {
		return err
	}
	fd.r = r
	return nil
}

// Next is engine.Feed's.
func (fd *Feed) Next() (*engine.Fed, bool) {
	if !fd.started {
		fd.started = true
		fd.lag.Start(time.Now())
	}
	for fd.err == nil {
		e, err := fd.r.Next()
		if errors.Is(err, io.EOF) {
			if fd.loop+1 >= fd.loops {
				return nil, false
			}
			fd.loop++
			fd.err = fd.open()
			continue
		}
		cmd, cls, why := fd.t.command(e)
		sh := fd.t.byShape[shapeKey(e.Shape, cls)]
		if why != "" || sh == nil {
			continue
		}
		fed := &engine.Fed{Op: sh.Index, Cmd: cmd, At: -1}
		if fd.speed > 0 {
			off := e.Start.Sub(fd.t.First) + time.Duration(fd.loop)*fd.period
			fed.At = max(0, time.Duration(float64(off)/fd.speed))
		}
		if l := lane(e.Conn); l != "" {
			done := make(chan struct{})
			fed.After, fed.Done = fd.lanes[l], done
			fd.lanes[l] = done
		}
		return fed, true
	}
	return nil, false
}

// Load is run.Arrivals': the load model's words and the in-flight cap.
func (fd *Feed) Load() (string, int) {
	return "replay at speed " + fd.pace.SpeedText(), fd.pace.MaxInFlight
}

// SendLag is run.Arrivals': the lag's recorder.
func (fd *Feed) SendLag(d time.Duration) { fd.lag.Record(d) }

// Complete is run.Arrivals': the replay's section of the result.
func (fd *Feed) Complete(res *results.Result) { res.Replay = fd.t.Section(res, fd.lag, fd.pace) }

// Err is what stopped the feed early (the file could not be read again).
func (fd *Feed) Err() error { return fd.err }

// Close closes the file.
func (fd *Feed) Close() {
	if fd.r != nil {
		fd.r.Close()
	}
}
