package capture

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/shape"
)

// builder writes one shape's workload operation.
type builder struct {
	sh   *Shape
	opts genOptions
	// keys are the collection's fields made from keys (keys.go).
	keys []keyed
	// private are the collection's fields judged high-cardinality over
	// the data (privacy.go), by fieldOf.
	private map[string]bool
	// laws are the collection's fields that keep their frequency law (ranks.go).
	laws map[string]*rankLaw
	// col is the sampled collection, for placeholders that came without
	// values ($queryStats' "?number"): they take the field's model.
	col *Collection
}

// Operation writes the workload operation of a shape; note says what it
// could not carry over ("" when nothing).
func (b *builder) Operation(name string, weight float64) (op config.Operation, note string) {
	sh, o := b.sh, &b.sh.First
	op = config.Operation{Name: name, Weight: weight, Collection: sh.DB + "." + sh.Coll}
	filter := b.tupled(b.value("filter", source.DocValue(o.Filter)))
	switch sh.Kind {
	case source.KindFind:
		op.Type, op.Filter = "find", filter
		op.Sort, op.Projection = b.value("sort", source.DocValue(o.Sort)), b.value("projection", source.DocValue(o.Projection))
		op.Limit = b.limit()
	case source.KindInsert:
		op.Type = "insertOne"
		if per := sh.Inserted / math.Max(1, sh.Count); per >= 1.5 {
			op.Type, op.BatchSize = "insertMany", int(math.Round(per))
		}
	case source.KindUpdate:
		op.Type, op.Filter, op.Upsert = "updateOne", filter, sh.Upsert
		upd := b.value("update", o.Update)
		if sh.Multi {
			op.Type = "updateMany"
		}
		if o.Update.Type == bson.TypeEmbeddedDocument && !operators(o.Update.Document()) {
			op.Type, op.Document = "replaceOne", upd
		} else {
			op.Update = upd
		}
	case source.KindDelete:
		op.Type, op.Filter = "deleteOne", filter
		if sh.Multi {
			op.Type = "deleteMany"
		}
	case source.KindFindAndModify:
		op.Type, op.Filter = "findOneAndUpdate", filter
		op.Sort, op.Projection, op.Upsert = b.value("sort", source.DocValue(o.Sort)), b.value("projection", source.DocValue(o.Projection)), sh.Upsert
		op.Update = b.value("update", o.Update)
		if sh.Remove {
			op = config.Operation{Name: name, Weight: weight, Collection: op.Collection, Type: "deleteOne", Filter: filter}
			note = "findAndModify with remove: replayed as deleteOne (the document is not returned)"
		}
	case source.KindCount:
		op.Type, op.Filter, op.Limit = "countDocuments", filter, b.limit()
	case source.KindDistinct:
		op.Type = "aggregate"
		match := filter
		if match.Kind != config.KindDoc && match.Kind != config.KindGen {
			match = config.Value{Kind: config.KindDoc}
		}
		op.Pipeline = config.Value{Kind: config.KindArray, Items: []config.Value{
			{Kind: config.KindDoc, Fields: []config.Field{{Key: "$match", Value: match}}},
			{Kind: config.KindDoc, Fields: []config.Field{{Key: "$group", Value: config.Value{Kind: config.KindDoc, Fields: []config.Field{{Key: "_id", Value: config.Value{Kind: config.KindScalar, Scalar: "$" + sh.Key1}}}}}}},
		}}
		note = "distinct " + sh.Key1 + ": replayed as the equivalent aggregation ($match, $group)"
	case source.KindAggregate:
		op.Type = "aggregate"
		op.Pipeline = b.value("pipeline", bson.RawValue{Type: bson.TypeArray, Value: o.Pipeline})
	}
	if op.Filter.Kind != config.KindDoc && op.Filter.Kind != config.KindGen && op.Type != "insertOne" && op.Type != "insertMany" && op.Type != "aggregate" {
		op.Filter = config.Value{Kind: config.KindDoc}
	}
	if op.Type == "deleteMany" && len(op.Filter.Fields) == 0 {
		op.Type, note = "deleteOne", "deleteMany with an empty filter (mongoload refuses to empty a collection): replayed as deleteOne"
	}
	return op, note
}

// value writes a captured document, update or pipeline with each literal
// replaced by its placeholder's generator.
func (b *builder) value(path string, v bson.RawValue) config.Value {
	switch v.Type {
	case 0:
		return config.Value{}
	case bson.TypeEmbeddedDocument:
		if r, ok := b.rangeOf(path, v.Document()); ok {
			return r
		}
		d := config.Value{Kind: config.KindDoc}
		els, _ := v.Document().Elements()
		for _, e := range els {
			d.Fields = append(d.Fields, config.Field{Key: e.Key(), Value: b.value(path+"."+e.Key(), e.Value())})
		}
		if path == "filter" && len(d.Fields) == 0 {
			return config.Value{Kind: config.KindDoc}
		}
		return d
	case bson.TypeArray:
		a := config.Value{Kind: config.KindArray}
		vals, _ := v.Array().Values()
		for i, e := range vals {
			if shape.Collapses(path) {
				a.Items = append(a.Items, b.hole(path+".[]", e))
				continue
			}
			a.Items = append(a.Items, b.value(path+"."+strconv.Itoa(i), e))
		}
		return a
	}
	if shapeLiteral(path, v) {
		return literal(v)
	}
	return b.hole(path, v)
}

// hole is the generator of one placeholder.
func (b *builder) hole(path string, v bson.RawValue) config.Value {
	f := b.sh.Holes[path]
	if f == nil {
		// Never the value itself: a model of its type, as of a private field.
		f = newField()
		f.Observe(v, nil)
		return f.Generator(genOptions{private: true})
	}
	if field, eq := lookupField(path); eq {
		for _, k := range b.keys {
			if k.field == field {
				return b.hot(k.gen, f)
			}
		}
		if law := b.laws[field]; law != nil {
			return law.lookupGen(f)
		}
	}
	if field, eq := lookupField(matchAsFilter(path)); eq && b.laws[field] != nil {
		return b.laws[field].lookupGen(f) // an aggregation's $match by the field
	}
	o := b.opts
	o.private = b.private[fieldOf(path)]
	if f.onlyPlaceholders() {
		g := typeDefault(f)
		if m := b.col.model(path); m != nil {
			g = m.Generator(o)
		}
		if s, _ := v.StringValueOK(); strings.HasPrefix(s, "?array") {
			g = gen("array", param("min", int64(1)), param("max", int64(3)), param("of", g)) // $in: "?array<?number>"
		}
		return g
	}
	return f.Generator(o)
}

func (b *builder) limit() config.Limit {
	f := b.sh.Limits
	if f == nil {
		return config.Limit{}
	}
	lo, hi := minMax(f.nums)
	if lo == hi {
		return config.Limit{N: int64(lo)}
	}
	return config.Limit{Gen: gen("int", param("min", int64(lo)), param("max", int64(hi)))}
}

// operators: an update document of $-operators, not a replacement.
func operators(d bson.Raw) bool {
	els, _ := d.Elements()
	return len(els) > 0 && strings.HasPrefix(els[0].Key(), "$")
}

func asLiteral(d bson.Raw) config.Value {
	if len(d) == 0 {
		return config.Value{}
	}
	return literal(source.DocValue(d))
}

// onlyPlaceholders: every value seen is a $queryStats placeholder.
func (f *Field) onlyPlaceholders() bool {
	if f.overflow || len(f.values) == 0 {
		return false
	}
	for _, v := range f.values {
		if s, ok := v.StringValueOK(); !ok || !source.QueryStatsPlaceholder(s) {
			return false
		}
	}
	return true
}

// typeDefault is a generator of a placeholder's type when the collection
// was not sampled: its whole default range, a guess the file says is one.
func typeDefault(f *Field) config.Value {
	for _, v := range f.values {
		switch s := v.StringValue(); {
		case strings.HasPrefix(s, "?number"), strings.HasPrefix(s, "?array<?number"):
			return gen("int", param("min", int64(0)), param("max", int64(1000)))
		case strings.HasPrefix(s, "?date"):
			return gen("date")
		case strings.HasPrefix(s, "?objectId"):
			return gen("objectId")
		case strings.HasPrefix(s, "?bool"):
			return gen("bool")
		}
	}
	return gen("string")
}

// model is the sampled model of the document field a placeholder
// compares with: its path without operators, indexes and $in's [].
func (c *Collection) model(path string) *Field {
	if c == nil {
		return nil
	}
	parts := strings.Split(path, ".")
	f := c.Root
	for _, p := range parts[1:] {
		if strings.HasPrefix(p, "$") || p == "[]" || strings.Trim(p, "0123456789") == "" {
			continue
		}
		for f.Elem != nil && f.Fields == nil {
			f = f.Elem // a field of an array's documents
		}
		next := f.Fields[p]
		if next == nil {
			return nil
		}
		f = next
	}
	if f == c.Root {
		return nil
	}
	if f.dominant() == bson.TypeArray && f.Elem != nil {
		f = f.Elem // {tags: x} matches an element
	}
	return f
}

// hot makes a key lookup skewed as the captured lookups were: when the
// most looked-up tenth of the values took half of the lookups or more, a
// hotspot law sends that share of the lookups to as many keys (YCSB's
// hotspot distribution: the first keys are the hot ones).
func (b *builder) hot(key config.Value, f *Field) config.Value {
	share, hotN, ok := f.hotShare()
	if !ok || share < 0.5 || b.col == nil || b.col.Count <= 0 {
		return key
	}
	frac := min(1, float64(hotN)/float64(max(b.col.Count, int64(len(f.distinct)))))
	out := key
	out.Fields = append(slices.Clone(key.Fields), param("distribution", "hotspot"),
		param("hotDataFraction", round(max(frac, 0.0001), 4)), param("hotOpnFraction", round(share, 3)))
	return out
}

// hotShare is the share of the observations that went to the most seen
// tenth of the distinct values, and how many values that tenth is; ok is
// false when there are too few to tell.
func (f *Field) hotShare() (share float64, n int, ok bool) {
	if f.overflow || len(f.distinct) < 20 {
		return 0, 0, false
	}
	counts := make([]int, 0, len(f.distinct))
	for _, c := range f.distinct {
		counts = append(counts, c)
	}
	slices.SortFunc(counts, func(a, b int) int { return b - a })
	n = (len(counts) + 9) / 10
	hot := 0
	for _, c := range counts[:n] {
		hot += c
	}
	return float64(hot) / float64(f.N-f.Nulls), n, true
}
