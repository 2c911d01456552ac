package capture

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/shape"
)

// Shape is a group of operations that differ only in their literals:
// same command, namespace, filter / sort / projection / limit / update /
// pipeline with every literal replaced by a typed placeholder ($queryStats'
// query shape).
type Shape struct {
	Key       string // the normalized text: command, namespace, parts
	Kind      string
	DB, Coll  string
	Count     float64 // executions
	Returned  float64 // documents returned, getMores included
	Inserted  float64
	Multi     bool
	Upsert    bool
	Remove    bool
	Key1      string    // distinct's field
	First     source.Op // the first operation seen: the structure to write
	Limits    *Field    // the limits seen (find, count)
	Millis    float64
	Plans     map[string]float64 // planSummary -> executions, the first few plans
	Holes     map[string]*Field
	HoleOrder []string
	// AggCount and AggReturned are the part of Count and Returned that
	// came in aggregate ($queryStats), to weigh the rest by (weight.go).
	AggCount, AggReturned float64
	// Widths are the widths of the ranges of a field ({f: {$gte: a, $lt:
	// b}}: b-a, milliseconds for dates), by the field's path (joint.go).
	Widths map[string]*Field
	// Tuples are the equality values a filter was run with together
	// ({org: x, status: y}), counted (joint.go).
	Tuples *tuples
}

// ShapeOf is the shape key of o (internal/shape's Placeholders); every
// literal it holds is passed to leaf with its placeholder's path.
func ShapeOf(o *source.Op, leaf func(path string, v bson.RawValue)) string {
	w := shape.Writer{Style: shape.Placeholders, Keep: shapeLiteral, Leaf: leaf}
	var sb strings.Builder
	sb.WriteString(o.Kind + " " + o.NS())
	part := func(name string, d bson.Raw) {
		if len(d) > 0 {
			sb.WriteString(" " + name + ":" + w.Value(name, bson.RawValue{Type: bson.TypeEmbeddedDocument, Value: d}))
		}
	}
	part("filter", o.Filter)
	part("sort", o.Sort)
	part("projection", o.Projection)
	if o.Limit > 0 {
		sb.WriteString(" limit:?")
		leaf("limit", bson.RawValue{Type: bson.TypeInt64, Value: binary.LittleEndian.AppendUint64(nil, uint64(o.Limit))})
	}
	if o.Update.Type != 0 {
		sb.WriteString(" update:" + w.Value("update", o.Update))
	}
	if len(o.Pipeline) > 0 {
		// Every stage is walked, not only $match: $addFields, $lookup's
		// pipeline, $facet and $search hold data too (privacy.go).
		sb.WriteString(" pipeline:" + w.Value("pipeline", bson.RawValue{Type: bson.TypeArray, Value: o.Pipeline}))
	}
	if o.Key != "" {
		sb.WriteString(" key:" + o.Key)
	}
	if o.Kind == source.KindInsert && o.Inserted > 1 {
		sb.WriteString(" batch") // insertMany: one shape whatever the batch size
	}
	switch {
	case o.Multi:
		sb.WriteString(" multi")
	case o.Upsert:
		sb.WriteString(" upsert")
	case o.Remove:
		sb.WriteString(" remove")
	}
	return sb.String()
}

// Shapes groups operations by shape.
type Shapes struct {
	byKey map[string]*Shape
	Order []*Shape
	r     *rand.Rand
}

// NewShapes makes an empty grouping; seed makes its value reservoirs
// reproducible.
func NewShapes(seed uint64) *Shapes {
	return &Shapes{byKey: map[string]*Shape{}, r: rand.New(rand.NewPCG(seed, 0x5ca7))}
}

// Add groups one operation. A getMore (Count 0) only adds the documents
// it returned to its shape; it reports false when that shape was never
// seen (its cursor's command was not recorded).
func (s *Shapes) Add(o source.Op) bool {
	var leaves []leaf
	key := ShapeOf(&o, func(path string, v bson.RawValue) { leaves = append(leaves, leaf{path, v}) })
	sh, ok := s.byKey[key]
	if !ok {
		if o.Count == 0 {
			return false
		}
		sh = &Shape{Key: key, Kind: o.Kind, DB: o.DB, Coll: o.Coll, First: o, Holes: map[string]*Field{},
			Multi: o.Multi, Upsert: o.Upsert, Remove: o.Remove, Key1: o.Key}
		s.byKey[key] = sh
		s.Order = append(s.Order, sh)
	}
	sh.Returned += float64(o.Returned)
	if o.Count == 0 {
		return true
	}
	if !sh.observes(o) {
		leaves = leaves[:0]
	}
	if o.Aggregate {
		sh.AggCount += o.Count
		sh.AggReturned += float64(o.Returned)
	}
	sh.Count += o.Count
	sh.Inserted += float64(o.Inserted) * o.Count
	sh.Millis += float64(o.Millis) * o.Count
	if o.Plan != "" {
		if sh.Plans == nil {
			sh.Plans = map[string]float64{}
		}
		if _, ok := sh.Plans[o.Plan]; ok || len(sh.Plans) < 8 {
			sh.Plans[o.Plan] += o.Count
		}
	}
	for _, l := range leaves {
		if l.path == "limit" {
			if sh.Limits == nil {
				sh.Limits = newField()
			}
			sh.Limits.Observe(l.v, s.r)
			continue
		}
		f, ok := sh.Holes[l.path]
		if !ok {
			f = newField()
			sh.Holes[l.path] = f
			sh.HoleOrder = append(sh.HoleOrder, l.path)
		}
		f.Observe(l.v, s.r)
	}
	sh.observeJoint(leaves, s.r)
	return true
}

// Total is the executions of every shape.
func (s *Shapes) Total() float64 {
	t := 0.0
	for _, sh := range s.Order {
		t += sh.Count
	}
	return t
}

// observes says whether o's literals are to be observed: $queryStats'
// placeholders only where no source gave real values, which replace them.
func (sh *Shape) observes(o source.Op) bool {
	own := sh.Count - sh.AggCount // executions seen one by one, with their values
	switch {
	case o.Aggregate:
		return own == 0
	case own == 0 && sh.AggCount > 0:
		sh.Holes, sh.HoleOrder, sh.Limits = map[string]*Field{}, nil, nil
	}
	return true
}
