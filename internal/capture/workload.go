package capture

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/config"
)

// Workload is a capture written in mongoload's workload language, with
// the notes its comments carry.
type Workload struct {
	Config   *config.Config
	Header   []string
	OpNotes  [][]string // per operation, in order
	ColNotes [][]string // per collection
	Kept     []*Shape
	Shares   []float64 // the kept shapes' shares of everything captured
	Folded   []*Shape
	Rate     float64 // operations per second of the kept shapes; 0: unknown
	RateNote string
	Curve    *Curve // the rate over time; nil: unknown
}

// Workload writes the capture as a workload named name.
func (r *Result) Workload(name string) *Workload {
	w := &Workload{Config: config.Default()}
	cfg := w.Config
	cfg.Name = name
	weighted := r.weightByQueryStats()
	total := r.Shapes.Total()
	shapes := slices.Clone(r.Shapes.Order)
	slices.SortStableFunc(shapes, func(a, b *Shape) int { return cmp.Compare(b.Count, a.Count) })
	keptTotal := 0.0
	for _, sh := range shapes {
		if sh.Count/total < r.Opts.MinShare {
			w.Folded = append(w.Folded, sh)
			continue
		}
		w.Kept, w.Shares = append(w.Kept, sh), append(w.Shares, sh.Count/total)
		keptTotal += sh.Count
	}
	opts := genOptions{keepValues: r.Opts.KeepValues}
	keys := keyedFields(w.Kept, r.Collections)
	private := privateFields(r.Shapes.Order, r.Collections)
	laws := rankLaws(w.Kept, r.Collections, keys)
	names := map[string]int{}
	for i, sh := range w.Kept {
		b := &builder{sh: sh, opts: opts, col: r.collection(sh.DB, sh.Coll), private: private[sh.DB+"."+sh.Coll]}
		b.keys, b.laws = keys[sh.DB+"."+sh.Coll], laws[sh.DB+"."+sh.Coll]
		op, note := b.Operation(opName(sh, names), round(w.Shares[i]*100, 3))
		cfg.Operations = append(cfg.Operations, op)
		notes := []string{fmt.Sprintf("%s: %.1f%% of what was captured (%s executions), %.2f documents returned each",
			sh.Kind+" on "+r.name(sh.DB, sh.Coll), w.Shares[i]*100, count(sh.Count), sh.Returned/math.Max(1, sh.Count))}
		if note != "" {
			notes = append(notes, note)
		}
		if src := sourceSide(sh); src != "" && !r.Opts.RedactNames {
			notes = append(notes, src)
		}
		if !r.Opts.RedactNames {
			notes = append(notes, "shape: "+sh.Key)
		}
		notes = append(notes, fmt.Sprintf("captured: share=%.6f returned=%.4f executions=%g", w.Shares[i], sh.Returned/math.Max(1, sh.Count), sh.Count))
		w.OpNotes = append(w.OpNotes, notes)
	}
	for _, c := range r.Collections {
		w.addCollection(r, c, opts, keys[c.DB+"."+c.Name], laws[c.DB+"."+c.Name])
	}
	if len(r.Collections) == 0 {
		w.collectionsWithoutSample(r)
	}
	w.rate(r, keptTotal)
	if w.Rate > 0 {
		cfg.Run.Rate = round(w.Rate, 2)
	}
	if w.Curve != nil {
		cfg.Run.Stages, cfg.Run.RepeatStages = w.Curve.Stages(), true
	}
	w.header(r, total)
	if weighted != "" {
		w.Header = slices.Insert(w.Header, slices.IndexFunc(w.Header, func(l string) bool { return strings.HasPrefix(l, "shapes:") }), weighted)
	}
	switch {
	case r.Opts.RedactNames:
		redact(cfg)
	case !r.Opts.KeepValues:
		privateKeys(w) // field names that are data (privatekeys.go)
	}
	return w
}

// addCollection writes a sampled collection: its template, indexes and
// seed count (its count when the window began, times --scale).
func (w *Workload) addCollection(r *Result, c *Collection, opts genOptions, keys []keyed, laws map[string]*rankLaw) {
	inserted := 0.0
	for _, sh := range r.Shapes.Order {
		if sh.DB == c.DB && sh.Coll == c.Name && sh.Kind == source.KindInsert {
			inserted += sh.Inserted
		}
	}
	col := config.Collection{Database: c.DB, Name: c.Name, Template: c.Template(opts, keys, laws)}
	col.Timeseries = c.timeseriesOf(col.Template)
	ix, ixNotes := c.IndexSpecs(opts.keepValues)
	col.Indexes = ix
	start := max(0, float64(c.Count)-inserted)
	scale := r.Opts.Scale
	if scale <= 0 {
		scale = 1
	}
	col.Seed = int64(math.Round(start * scale))
	if start > 0 && col.Seed == 0 {
		col.Seed = 1
	}
	notes := []string{fmt.Sprintf("%s: %s documents, %s bytes when sampled; template from a $sample of %d", r.name(c.DB, c.Name), count(float64(c.Count)), count(float64(c.Size)), c.Sampled),
		fmt.Sprintf("seed: its count when the window began (%s now, less %s inserted during the window)", count(float64(c.Count)), count(inserted))}
	if scale != 1 {
		notes = append(notes, fmt.Sprintf("  times --scale %g", scale))
	}
	for _, k := range keys {
		notes = append(notes, r.field(k.field)+": unique (looked up by equality, or under a unique index): made from the collection's keys, so that a replayed lookup finds its document as the captured one did, and no two documents share a value")
	}
	for _, name := range slices.Sorted(maps.Keys(laws)) {
		notes = append(notes, laws[name].note(r.field(name)))
	}
	notes = append(append(notes, c.Notes...), ixNotes...)
	w.Config.Collections = append(w.Config.Collections, col)
	w.ColNotes = append(w.ColNotes, notes)
}

// collectionsWithoutSample declares the collections the operations use
// when no server was there to sample them: an empty template, to fill in.
func (w *Workload) collectionsWithoutSample(r *Result) {
	seen := map[string]bool{}
	for _, sh := range w.Kept {
		if ns := sh.DB + "." + sh.Coll; !seen[ns] {
			seen[ns] = true
			w.Config.Collections = append(w.Config.Collections, config.Collection{Database: sh.DB, Name: sh.Coll,
				Template: config.Value{Kind: config.KindDoc, Fields: []config.Field{{Key: "_id", Value: gen("objectId")}}}})
			w.ColNotes = append(w.ColNotes, []string{r.name(sh.DB, sh.Coll) + ": not sampled (no --uri): the template is only an _id; give --uri to sample the collection, or write its fields"})
		}
	}
}

// rate is the captured rate of the kept shapes: only where every
// operation of the window was recorded, corrected for sampling.
func (w *Workload) rate(r *Result, kept float64) {
	if r.Opts.Rate > 0 {
		w.Rate, w.RateNote = r.Opts.Rate, fmt.Sprintf("rate: %g operations/s, given with --rate", r.Opts.Rate)
		return
	}
	var from, to time.Time
	sampling := 1.0
	for _, s := range r.Sources {
		if s.Executions == 0 || r.weightNote != "" && s.Name != "$queryStats" {
			continue // weighted, the counts are $queryStats' (weight.go)
		}
		if !s.Complete {
			w.RateNote = "no rate: " + s.Why + ". The run is closed loop; give --rate to capture, or --rate to run, for an open loop"
			return
		}
		if from.IsZero() || s.From.Before(from) {
			from = s.From
		}
		if s.To.After(to) {
			to = s.To
		}
		if s.Sampling > 0 && s.Sampling < 1 {
			sampling = s.Sampling
		}
	}
	span := to.Sub(from).Seconds()
	if span <= 0 || kept < 2 {
		w.RateNote = "no rate: the window is too short to measure one"
		return
	}
	w.Rate = (kept - 1) / span / sampling
	w.Curve = curve(r.Sources, round(w.Rate, 2))
	w.RateNote = fmt.Sprintf("rate: %.2f operations/s, %s operations over the %s window from %s to %s", w.Rate, count(kept), (time.Duration(span * float64(time.Second))).Round(time.Millisecond), from.Format(time.RFC3339), to.Format(time.RFC3339))
	if sampling < 1 {
		w.RateNote += fmt.Sprintf(", divided by the sample rate %g", sampling)
	}
	w.RateNote += ". mongoload run FILE --rate-scale 3 runs at three times it (open loop)"
}

func (w *Workload) header(r *Result, total float64) {
	h := []string{"Captured by 'mongoload capture' on " + r.Opts.Now().UTC().Format(time.RFC3339) + "."}
	for _, s := range r.Sources {
		line := fmt.Sprintf("source: %s, %d entries read, %d operations", s.Name, s.Tally.Read, s.Tally.Used)
		if !s.From.IsZero() {
			line += fmt.Sprintf(", %s to %s", s.From.Format(time.RFC3339), s.To.Format(time.RFC3339))
		}
		h = append(h, line, "  "+s.Why, "  "+s.Tally.LeftOut())
		for _, l := range s.Tally.Lost {
			h = append(h, "  lost: "+l)
		}
		if s.Impact != "" {
			h = append(h, "  "+s.Impact)
		}
		for _, n := range s.ImpactNotes {
			h = append(h, "  guard: "+n)
		}
		if s.Protected != "" {
			h = append(h, "  stopped: "+s.Protected)
		}
	}
	for _, b := range r.blindSpots() {
		h = append(h, "blind spot: "+b)
	}
	h = append(h, fmt.Sprintf("shapes: %d, %d kept as operations, weighted by their share of the %s executions captured", len(r.Shapes.Order), len(w.Kept), count(total)))
	if len(w.Folded) > 0 {
		n, share := 0.0, 0.0
		for _, sh := range w.Folded {
			n += sh.Count
			share += sh.Count / total
		}
		h = append(h, fmt.Sprintf("folded: %d shapes under --min-share %g, %.2f%% of executions (%s), are not replayed; the others' weights keep their proportions", len(w.Folded), r.Opts.MinShare, share*100, count(n)))
	}
	h = append(h, w.RateNote)
	if w.Curve != nil {
		h = append(h, w.Curve.Note(w.Config.Run.Rate))
	}
	privacy := "values: no literal that could identify a person, an account or a secret is written, in any stage: only the values of low-cardinality fields judged over the data (as enums), ranges no narrower than ten values, a decade of digits or a year; --keep-values would write them"
	if r.Opts.KeepValues {
		privacy = "values: --keep-values: the literals seen are written as they were"
	}
	h = append(h, privacy)
	if r.Opts.RedactNames {
		h = append(h, "names: database, collection and field names are replaced by stable hashes (--redact-names)")
	}
	h = append(h, "Check it with 'mongoload validate FILE'; run it with 'mongoload run FILE' (seeding to the source's counts; --seed-scale 0.1 for a tenth).")
	w.Header = h
}

// opName names an operation after its kind, collection and filter
// fields: find_orders_by_customer_id.
func opName(sh *Shape, used map[string]int) string {
	name := sh.Kind + "_" + sh.Coll
	var fields []string
	if els, err := sh.First.Filter.Elements(); err == nil {
		for _, e := range els {
			if !strings.HasPrefix(e.Key(), "$") {
				fields = append(fields, strings.ReplaceAll(e.Key(), ".", "_"))
			}
		}
	}
	if len(fields) > 0 && len(fields) <= 3 {
		name += "_by_" + strings.Join(fields, "_")
	}
	used[name]++
	if n := used[name]; n > 1 {
		name = fmt.Sprintf("%s_%d", name, n)
	}
	return name
}

// count writes a count without a misleading fraction.
func count(x float64) string {
	if x == math.Trunc(x) {
		return fmt.Sprintf("%d", int64(x))
	}
	return fmt.Sprintf("%.1f", x)
}

func (r *Result) collection(db, name string) *Collection {
	for _, c := range r.Collections {
		if c.DB == db && c.Name == name {
			return c
		}
	}
	return nil
}

// name is a namespace as the file may show it: hashed with --redact-names.
func (r *Result) name(db, coll string) string {
	if r.Opts.RedactNames {
		return hashName("db", db) + "." + hashName("c", coll)
	}
	return db + "." + coll
}

// field is a field path as the file may show it.
func (r *Result) field(path string) string {
	if r.Opts.RedactNames {
		return redactPath(path)
	}
	return path
}

// sourceSide says how the shape ran on the source: its mean duration and
// its most frequent plan, to compare with the replay's.
func sourceSide(sh *Shape) string {
	if sh.Count == 0 || sh.Millis == 0 && len(sh.Plans) == 0 {
		return ""
	}
	line := fmt.Sprintf("on the source: %.2f ms on average", sh.Millis/sh.Count)
	best, n := "", 0.0
	for _, p := range slices.Sorted(maps.Keys(sh.Plans)) {
		if sh.Plans[p] > n {
			best, n = p, sh.Plans[p]
		}
	}
	if best != "" {
		line += fmt.Sprintf(", plan %s (%s of %s executions)", best, count(n), count(sh.Count))
	}
	return line
}
