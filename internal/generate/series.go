package generate

import (
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Measurements as they really arrive at a time-series collection: many
// series (one per device, the collection's metaField), each reporting at
// a steady pace with a little jitter, its values following on from the
// last (a random walk, a daily cycle with noise) rather than drawn anew.
//
// A document's reading is (series, n): series i of count, reading n of
// that series. It derives from the document's key when the document has
// one (key k is reading k/count of series k%count), so seeding, loading
// and later runs continue each series in time order wherever they stop;
// without a key, from a counter shared by the run's workers. The series
// generator decides it and the others read it from the State, so the
// template lists series first, then the time, then the values.

// seriesDoc is the reading the current document is (State.series).
type seriesDoc struct {
	i, n  int64
	count int64
	at    int64 // the reading's time, Unix ms, once seriesTime made it
	on    bool  // a series generator made it in this document
	timed bool  // seriesTime made at
}

// beginDocument forgets the last document's reading and key.
func (st *State) beginDocument() {
	st.series = seriesDoc{}
	st.docKey, st.hasKey = 0, false
}

// reading returns the document's reading: made by the series generator,
// or else the one series a template without one has.
func (st *State) reading(counter *atomic.Int64) seriesDoc {
	if st.series.on {
		return st.series
	}
	return seriesDoc{i: 0, n: st.ordinal(counter), count: 1}
}

// ordinal is this document's position: its key (as loaded or inserted),
// else the next value of counter.
func (st *State) ordinal(counter *atomic.Int64) int64 {
	switch {
	case st.hasKey:
		return st.docKey
	case st.load.on:
		return st.load.ks.physical(st.load.key)
	}
	return counter.Add(1) - 1
}

// seriesGen names the document's series: prefix followed by its number
// padded to the width of count (device-007), or the number itself.
type seriesGen struct {
	count   int64
	prefix  string
	pad     int
	counter atomic.Int64
}

// Append implements Generator.
func (g *seriesGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	o := st.ordinal(&g.counter)
	st.series = seriesDoc{i: o % g.count, n: o / g.count, count: g.count, on: true}
	if g.prefix == "" {
		return appendIntAuto(dst, st.series.i)
	}
	start, dst := reserve(dst)
	dst = append(dst, g.prefix...)
	for d := decimalLen(st.series.i); d < g.pad; d++ {
		dst = append(dst, '0')
	}
	dst = strconv.AppendInt(dst, st.series.i, 10)
	return bson.TypeString, closeString(dst, start)
}

// buildSeries: series {count, prefix}, the series (metaField) of the
// document; count series, named prefix + number ("" for plain numbers).
func buildSeries(p *params) (Generator, error) {
	g := &seriesGen{count: p.intIn("count", 100, 1, 1<<40), prefix: p.str("prefix", "")}
	g.pad = decimalLen(g.count - 1)
	return p.done(g)
}

// seriesTimeGen is reading n's time: start + n*every, plus a jitter drawn
// in [0, jitter). jitter < every keeps each series' times strictly
// increasing.
type seriesTimeGen struct {
	start, every, jitter int64 // Unix ms, ms, ms
	counter              atomic.Int64
}

// Append implements Generator.
func (g *seriesTimeGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	r := st.reading(&g.counter)
	at := g.start + r.n*g.every
	if g.jitter > 0 {
		at += st.Rand.Int64N(g.jitter)
	}
	st.series.at, st.series.timed = at, true
	return bson.TypeDateTime, appendInt64(dst, at)
}

// buildSeriesTime: seriesTime {start, every, jitter}, the time of the
// document's reading (the collection's timeField).
func buildSeriesTime(p *params) (Generator, error) {
	g := &seriesTimeGen{start: p.time("start", seriesStart).UnixMilli()}
	g.every = p.duration("every", 10*time.Second).Milliseconds()
	g.jitter = p.duration("jitter", 0).Milliseconds()
	if g.every < 1 {
		p.fail(0, "every must be at least 1ms")
	}
	if g.jitter < 0 || g.jitter >= max(g.every, 1) {
		p.fail(0, "jitter %dms must be less than every (%dms), or each series' times would not always advance", g.jitter, g.every)
	}
	return p.done(g)
}

// seriesStart is seriesTime's default start: fixed, so that the same seed
// gives the same measurements on any day.
var seriesStart = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// walkGen is a random walk per series: each reading is the series' last
// plus a normal step of sd step, reflected into [min, max]. The last
// values are shared by the workers (a walk follows on from whatever
// reading of its series came before, whoever made it).
type walkGen struct {
	start, step, lo, hi float64
	counter             atomic.Int64
	mu                  sync.Mutex
	last                map[int64]float64
}

// Append implements Generator.
func (g *walkGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	r := st.reading(&g.counter)
	d := st.Rand.NormFloat64() * g.step
	g.mu.Lock()
	v, ok := g.last[r.i]
	if !ok {
		v = g.start
	}
	v = reflect(v+d, g.lo, g.hi)
	g.last[r.i] = v
	g.mu.Unlock()
	return bson.TypeDouble, appendDouble(dst, v)
}

// reflect folds v back into [lo, hi] as a walk bouncing off its bounds.
func reflect(v, lo, hi float64) float64 {
	if hi <= lo {
		return lo
	}
	w := hi - lo
	x := math.Mod(v-lo, 2*w)
	if x < 0 {
		x += 2 * w
	}
	if x > w {
		x = 2*w - x
	}
	return lo + x
}

// buildWalk: walk {start, step, min, max}.
func buildWalk(p *params) (Generator, error) {
	lo, hi := p.floatRange(0, 100)
	g := &walkGen{lo: lo, hi: hi, step: p.float("step", (hi-lo)/100), last: map[int64]float64{}}
	g.start = p.float("start", (lo+hi)/2)
	if g.step < 0 {
		p.fail(0, "step %v is negative", g.step)
	}
	if g.start < lo || g.start > hi {
		p.fail(0, "start %v is outside [min %v, max %v]", g.start, lo, hi)
	}
	return p.done(g)
}

// cycleGen follows a cycle over the reading's time (a day by default):
// mean + amplitude*sin(2π t/period), plus normal noise of sd noise. The
// time is seriesTime's when the document has one, else now's.
type cycleGen struct {
	mean, amplitude, noise float64
	period                 float64 // ms
}

// Append implements Generator.
func (g *cycleGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	at := st.series.at
	if !st.series.timed {
		at = st.nowMillis()
	}
	phase := math.Mod(float64(at), g.period) / g.period
	v := g.mean + g.amplitude*math.Sin(2*math.Pi*phase)
	if g.noise > 0 {
		v += st.Rand.NormFloat64() * g.noise
	}
	return bson.TypeDouble, appendDouble(dst, v)
}

// buildCycle: cycle {mean, amplitude, period, noise}.
func buildCycle(p *params) (Generator, error) {
	g := &cycleGen{mean: p.float("mean", 0), amplitude: p.float("amplitude", 1), noise: p.float("noise", 0)}
	g.period = float64(p.duration("period", 24*time.Hour).Milliseconds())
	if g.period < 1 {
		p.fail(0, "period must be at least 1ms")
	}
	if g.noise < 0 {
		p.fail(0, "noise %v is negative: it is a standard deviation", g.noise)
	}
	return p.done(g)
}

// duration reads a duration parameter: a string such as "10s" or "1h30m",
// or a number of seconds.
func (p *params) duration(key string, def time.Duration) time.Duration {
	v, ok := p.get(key)
	if !ok {
		return def
	}
	switch s := v.Scalar.(type) {
	case string:
		d, err := time.ParseDuration(s)
		if err == nil {
			return d
		}
	case int64:
		return time.Duration(s) * time.Second
	case float64:
		if !math.IsNaN(s) && !math.IsInf(s, 0) && math.Abs(s) < 1e9 {
			return time.Duration(s * float64(time.Second))
		}
	}
	p.fail(v.Line, "%s must be a duration such as 10s or 1h, got %s", key, v)
	return def
}
