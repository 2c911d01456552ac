package source

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// The cost of the profiler on the source, measured and bounded
// (docs/capture.md, "What capture costs the source"). Before the profiler
// is turned on, capture reads serverStatus for baselineFor: operations per
// second (opcounters, by type) and the server's mean latency of reads and
// writes (opLatencies). During the window it reads them every second and
// compares. With --max-impact the window starts at the lowest sampleRate
// (0.01: a profiler at level 2 can cost a busy server most of its
// throughput in the first second, before any measure can answer), and
// two seconds in a row well within the bound (latency added and throughput
// lost both under half of it) raise it tenfold,
// up to --sample-rate (1); a second over the bound lowers it tenfold, and
// the rate that hurt is not tried again. Over the bound at the lowest,
// capture restores the profiler and ends the window, keeping what it read.
const (
	baselineFor  = 2 * time.Second
	guardEvery   = time.Second
	lowestSample = 0.01
)

// opStats is one serverStatus reading.
type opStats struct {
	at      time.Time
	ops     map[string]int64 // opcounters
	latency int64            // reads' and writes' total latency, µs
	latOps  int64            // reads and writes
	ownN    int64            // capture's own tail reads, and their time
	ownTime time.Duration
}

// ownReads is a server that counts capture's own reads (*mongodb.Client).
type ownReads interface {
	OwnReads() (int64, time.Duration)
}

func readOpStats(ctx context.Context, srv Server) (opStats, error) {
	raw, err := srv.Command(ctx, "admin", bson.D{{Key: "serverStatus", Value: 1}, {Key: "repl", Value: 0},
		{Key: "metrics", Value: 0}, {Key: "locks", Value: 0}, {Key: "wiredTiger", Value: 0}})
	if err != nil {
		return opStats{}, err
	}
	st := opStats{at: time.Now(), ops: map[string]int64{}}
	if oc, ok := raw.Lookup("opcounters").DocumentOK(); ok {
		els, _ := oc.Elements()
		for _, e := range els {
			st.ops[e.Key()] = int64(mongodb.Number(e.Value()))
		}
	}
	for _, k := range []string{"reads", "writes"} {
		st.latency += int64(mongodb.Number(raw.Lookup("opLatencies", k, "latency")))
		st.latOps += int64(mongodb.Number(raw.Lookup("opLatencies", k, "ops")))
	}
	if o, ok := srv.(ownReads); ok {
		st.ownN, st.ownTime = o.OwnReads()
	}
	return st, nil
}

// load is what the source did between two readings.
type load struct {
	perSec  float64            // operations a second, every type
	byType  map[string]float64 // operations a second, by opcounters' type
	latency float64            // mean latency of reads and writes, µs (0: none ran)
}

func loadBetween(a, b opStats) load {
	secs := b.at.Sub(a.at).Seconds()
	l := load{byType: map[string]float64{}}
	if secs <= 0 {
		return l
	}
	own := b.ownN - a.ownN
	for k, v := range b.ops {
		n := float64(v - a.ops[k])
		if k == "getmore" {
			n = max(n-float64(own), 0) // the tail's own reads
		}
		l.byType[k] = n / secs
		if k != "command" { // capture's serverStatus and the drivers' own
			l.perSec += n / secs
		}
	}
	if ops := b.latOps - a.latOps - own; ops > 0 {
		us := float64(b.latency-a.latency) - float64((b.ownTime - a.ownTime).Microseconds())
		l.latency = max(us, 0) / float64(ops)
	}
	return l
}

// impact of during against the baseline, in percent: the throughput lost
// and the latency added.
type impact struct {
	throughput, latency float64
	latencyKnown        bool // both sides ran reads or writes
}

func impactOf(base, during load) impact {
	var im impact
	if base.perSec > 0 {
		im.throughput = 100 * (base.perSec - during.perSec) / base.perSec
	}
	if base.latency > 0 && during.latency > 0 {
		im.latency, im.latencyKnown = 100*(during.latency-base.latency)/base.latency, true
	}
	return im
}

// harm is the figure --max-impact bounds: the latency added, or the
// throughput lost while latency rose too (a throughput that falls with
// latency flat is the application slowing down by itself: its end, a
// pause, not the profiler's cost).
func (im impact) harm() float64 {
	h := im.latency
	if im.latency > 5 {
		h = max(h, im.throughput)
	}
	return h
}

func (im impact) String() string {
	if !im.latencyKnown {
		return fmt.Sprintf("throughput %+.1f%%, latency not measured (no read or write ran)", -im.throughput)
	}
	return fmt.Sprintf("throughput %+.1f%%, latency %+.1f%%", -im.throughput, im.latency)
}

// guard watches the source during the window.
type guard struct {
	srv      Server
	o        Options
	set      []mongodb.ProfilerState // the profiler states capture set, by database
	base     load
	prev     opStats
	first    opStats
	mu       sync.Mutex
	rates    []rateSince // sampleRate in effect, from when
	worst    impact
	notes    []string
	stopped  string  // why the window was ended to protect the source
	settling bool    // the second after a change is not judged
	ceiling  float64 // the highest sampleRate still to try
	calm     int     // seconds in a row well within the bound
}

type rateSince struct {
	rate float64
	from time.Time
}

// baseline measures the source before the profiler changes; nil when
// serverStatus cannot be read (the guard is then off, and said so).
func baseline(ctx context.Context, srv Server, o Options) (*guard, error) {
	a, err := readOpStats(ctx, srv)
	if err != nil {
		return nil, err
	}
	o.Progress(fmt.Sprintf("measuring the source for %s before turning the profiler on (serverStatus opcounters and opLatencies)", baselineFor))
	t := time.NewTimer(baselineFor)
	select {
	case <-ctx.Done():
		t.Stop()
		return nil, ctx.Err()
	case <-t.C:
	}
	b, err := readOpStats(ctx, srv)
	if err != nil {
		return nil, err
	}
	g := &guard{srv: srv, o: o, base: loadBetween(a, b)}
	o.Progress(fmt.Sprintf("source before the window: %.0f operations/s, %.0f µs mean latency of reads and writes", g.base.perSec, g.base.latency))
	return g, nil
}

// startRate is the sampleRate the window opens at: the lowest when the
// cost is bounded (the guard raises it while the source allows).
func startRate(o Options, rate float64) float64 {
	if o.MaxImpact > 0 {
		return min(rate, lowestSample)
	}
	return rate
}

// start begins watching at the window's opening, the profiler set to sets
// at sampleRate rate, to be raised up to ceiling while the source allows.
func (g *guard) start(ctx context.Context, sets []mongodb.ProfilerState, rate, ceiling float64) {
	g.set = sets
	g.ceiling = ceiling
	g.rates = []rateSince{{rate, time.Now()}}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	g.first, _ = readOpStats(rctx, g.srv)
	cancel()
	g.prev = g.first
}

// watch judges every second until ctx ends; stop ends the window.
func (g *guard) watch(ctx context.Context, stop func()) {
	tick := time.NewTicker(guardEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		cur, err := readOpStats(ctx, g.srv)
		if err != nil {
			continue // the tail reports a server that went away
		}
		im := impactOf(g.base, loadBetween(g.prev, cur))
		g.prev = cur
		g.mu.Lock()
		if im.harm() > g.worst.harm() {
			g.worst = im
		}
		settling := g.settling
		g.settling = false
		g.mu.Unlock()
		if g.o.MaxImpact <= 0 || settling {
			continue
		}
		if im.harm() <= g.o.MaxImpact {
			// Raising needs no sign of harm at all: a throughput lost
			// with latency flat is not counted against the bound, but it
			// is no reason to record more (a loaded host hides the cost).
			if g.calm++; im.harm() > g.o.MaxImpact/2 || im.throughput > g.o.MaxImpact/2 {
				g.calm = 0
			}
			if g.calm >= 2 && g.rate() < g.ceiling {
				g.calm = 0
				g.change(ctx, im, min(g.rate()*10, g.ceiling), "well within --max-impact: sampleRate raised to")
			}
			continue
		}
		g.calm = 0
		if !g.lower(ctx, im) {
			g.mu.Lock()
			g.stopped = fmt.Sprintf("the profiler cost the source %s (over --max-impact %g%%) even at sampleRate %g: capture restored it and ended the window, keeping what it read", im, g.o.MaxImpact, g.rate())
			g.mu.Unlock()
			g.o.Progress(g.stopped)
			stop()
			return
		}
	}
}

func (g *guard) rate() float64 { return g.rates[len(g.rates)-1].rate }

// lower sets the profiler's sampleRate a tenth of what it was, and
// never tries that rate again; false when it is at the lowest already (or
// the server refused).
func (g *guard) lower(ctx context.Context, im impact) bool {
	g.mu.Lock()
	next := g.rate() / 10
	g.ceiling = next
	g.mu.Unlock()
	if next < lowestSample*0.999 {
		return false
	}
	return g.change(ctx, im, next, fmt.Sprintf("over --max-impact %g%%: sampleRate lowered to", g.o.MaxImpact))
}

// change sets the profiler's sampleRate to next on every database.
func (g *guard) change(ctx context.Context, im impact, next float64, why string) bool {
	for i, db := range g.o.Databases {
		st := g.set[i]
		st.SampleRate = next
		if err := g.srv.SetProfiler(ctx, db, st); err != nil {
			g.o.Progress(fmt.Sprintf("warning: could not set the profiler's sampleRate of %s: %s", db, FirstLine(err)))
			return false
		}
		g.set[i] = st
	}
	g.mu.Lock()
	g.rates = append(g.rates, rateSince{next, time.Now()})
	g.settling = true
	note := fmt.Sprintf("%s: the profiler cost the source %s, %s %g", time.Now().UTC().Format(time.TimeOnly), im, why, next)
	g.notes = append(g.notes, note)
	g.mu.Unlock()
	g.o.Progress(note)
	return true
}

// finish says the impact over the whole window and the sample rate the
// counts are to be divided by (the rates in effect, weighed by the time
// each was).
func (g *guard) finish(ctx context.Context, src *Source) {
	// After Ctrl-C the last second read stands for the end: a server that
	// does not answer must not keep the user waiting.
	end := g.prev
	if ctx.Err() == nil {
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		if st, err := readOpStats(rctx, g.srv); err == nil {
			end = st
		}
		cancel()
	}
	whole := impactOf(g.base, loadBetween(g.first, end))
	g.mu.Lock()
	defer g.mu.Unlock()
	line := fmt.Sprintf("impact on the source: %s over the window (worst second %s), against %.0f operations/s and %.0f µs before it",
		whole, g.worst, g.base.perSec, g.base.latency)
	if g.o.MaxImpact > 0 {
		line += fmt.Sprintf("; --max-impact %g%%", g.o.MaxImpact)
	}
	src.Impact = line
	src.ImpactNotes = append(src.ImpactNotes, g.notes...)
	src.Protected = g.stopped
	g.o.Progress(line)
	if len(g.rates) > 1 {
		weighted, total := 0.0, 0.0
		for i, r := range g.rates {
			to := time.Now()
			if i+1 < len(g.rates) {
				to = g.rates[i+1].from
			}
			d := to.Sub(r.from).Seconds()
			weighted += r.rate * d
			total += d
		}
		if total > 0 {
			src.Sampling = weighted / total
			var steps []string
			for _, r := range g.rates {
				steps = append(steps, fmt.Sprintf("%g", r.rate))
			}
			src.Why += fmt.Sprintf("; sampleRate %s over the window: counts divided by %.3g, their mean weighed by time", strings.Join(steps, " then "), src.Sampling)
		}
	}
}
