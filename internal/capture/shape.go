package capture

import (
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/mongoload/mongoload/internal/mongodb"
	"go.mongodb.org/mongo-driver/v2/bson"
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
	Key1      string // distinct's field
	First     Op     // the first operation seen: the structure to write
	Limits    *Field // the limits seen (find, count)
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

// ShapeOf is the shape key of o; every literal it holds is passed to leaf
// with its placeholder's path.
func ShapeOf(o *Op, leaf func(path string, v bson.RawValue)) string {
	var sb strings.Builder
	sb.WriteString(o.Kind + " " + o.NS())
	part := func(name string, d bson.Raw, values bool) {
		if len(d) == 0 {
			return
		}
		sb.WriteString(" " + name + ":")
		if values {
			walk(&sb, name, bson.RawValue{Type: bson.TypeEmbeddedDocument, Value: d}, leaf)
		} else {
			sb.WriteString(d.String())
		}
	}
	part("filter", o.Filter, true)
	part("sort", o.Sort, true)
	part("projection", o.Projection, true)
	if o.Limit > 0 {
		sb.WriteString(" limit:?")
		leaf("limit", bson.RawValue{Type: bson.TypeInt64, Value: binary.LittleEndian.AppendUint64(nil, uint64(o.Limit))})
	}
	if o.Update.Type != 0 {
		sb.WriteString(" update:")
		walk(&sb, "update", o.Update, leaf)
	}
	if len(o.Pipeline) > 0 {
		// Every stage is walked, not only $match: $addFields, $lookup's
		// pipeline, $facet and $search hold data too (privacy.go).
		sb.WriteString(" pipeline:")
		walk(&sb, "pipeline", bson.RawValue{Type: bson.TypeArray, Value: o.Pipeline}, leaf)
	}
	if o.Key != "" {
		sb.WriteString(" key:" + o.Key)
	}
	if o.Kind == KindInsert && o.Inserted > 1 {
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

// walk writes the shape of v: documents keep their keys, literals become
// ?type, and the elements of $in, $nin and $all collapse into one
// placeholder ([] in the path), as their number is data, not shape.
func walk(sb *strings.Builder, path string, v bson.RawValue, leaf func(string, bson.RawValue)) {
	switch v.Type {
	case bson.TypeEmbeddedDocument:
		sb.WriteString("{")
		els, _ := v.Document().Elements()
		for i, e := range els {
			if i > 0 {
				sb.WriteString(",")
			}
			sb.WriteString(e.Key() + ":")
			walk(sb, path+"."+e.Key(), e.Value(), leaf)
		}
		sb.WriteString("}")
	case bson.TypeArray:
		vals, _ := v.Array().Values()
		if collapses(path) {
			sb.WriteString("[")
			types := map[string]bool{}
			for _, e := range vals {
				if ph := placeholderOf(e.Type); !types[ph] {
					types[ph] = true
					sb.WriteString(ph)
				}
				leaf(path+".[]", e)
			}
			sb.WriteString("]")
			return
		}
		sb.WriteString("[")
		for i, e := range vals {
			if i > 0 {
				sb.WriteString(",")
			}
			walk(sb, pathIndex(path, i), e, leaf)
		}
		sb.WriteString("]")
	default:
		if shapeLiteral(path, v) {
			sb.WriteString(shapeText(v)) // a field path, a stage's option: shape
			return
		}
		sb.WriteString(placeholderOf(v.Type))
		leaf(path, v)
	}
}

// collapses: the array at path is a list of values ($in's), in a query;
// in an aggregation expression $in is [expression, array].
func collapses(path string) bool {
	if !inQuery(path) || strings.Contains(path, "$expr") {
		return false
	}
	i := strings.LastIndexByte(path, '.')
	switch path[i+1:] {
	case "$in", "$nin", "$all":
		return true
	}
	return false
}

func pathIndex(path string, i int) string { return path + "." + strconv.Itoa(i) }

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
func (s *Shapes) Add(o Op) bool {
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

// placeholderOf names a literal's type as $queryStats does: every number
// is ?number, so 5 and 5.0 and NumberLong(5) are one shape.
func placeholderOf(t bson.Type) string {
	switch t {
	case bson.TypeInt32, bson.TypeInt64, bson.TypeDouble, bson.TypeDecimal128:
		return "?number"
	case bson.TypeString:
		return "?string"
	case bson.TypeDateTime:
		return "?date"
	case bson.TypeObjectID:
		return "?objectId"
	case bson.TypeBoolean:
		return "?bool"
	}
	return "?" + t.String()
}

// observes says whether o's literals are to be observed: $queryStats'
// placeholders only where no source gave real values, which replace them.
func (sh *Shape) observes(o Op) bool {
	own := sh.Count - sh.AggCount // executions seen one by one, with their values
	switch {
	case o.Aggregate:
		return own == 0
	case own == 0 && sh.AggCount > 0:
		sh.Holes, sh.HoleOrder, sh.Limits = map[string]*Field{}, nil, nil
	}
	return true
}

// shapeText writes a literal that is part of a shape as the shape line
// shows it: -1, true, null, "$email" (every number alike, as placeholders
// are: 1 and 1.0 are one shape).
func shapeText(v bson.RawValue) string {
	switch v.Type {
	case bson.TypeInt32, bson.TypeInt64, bson.TypeDouble:
		return strconv.FormatFloat(mongodb.Number(v), 'g', -1, 64)
	case bson.TypeString:
		return strconv.Quote(v.StringValue())
	case bson.TypeBoolean:
		return strconv.FormatBool(v.Boolean())
	case bson.TypeNull, bson.TypeUndefined:
		return "null"
	}
	return v.String()
}
