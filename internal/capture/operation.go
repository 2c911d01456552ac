package capture

import (
	"fmt"
	"math"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// keyedID is the _id of a collection whose operations look documents up by
// their ObjectId _id: an ObjectId made from the document's key, so that a
// replayed lookup finds a document as the captured one did.
var keyedID = gen("key", param("as", "objectId"))

// builder writes one shape's workload operation.
type builder struct {
	sh   *Shape
	opts genOptions
	// keyedIDs is set when a placeholder of _id became a key, so the
	// collection's template must make its _id from keys too.
	keyedIDs bool
}

// Operation writes the workload operation of a shape; note says what it
// could not carry over ("" when nothing).
func (b *builder) Operation(name string, weight float64) (op config.Operation, note string) {
	sh, o := b.sh, &b.sh.First
	op = config.Operation{Name: name, Weight: weight, Collection: sh.DB + "." + sh.Coll}
	filter := b.value("filter", docValue(o.Filter))
	switch sh.Kind {
	case KindFind:
		op.Type, op.Filter = "find", filter
		op.Sort, op.Projection = asLiteral(o.Sort), asLiteral(o.Projection)
		op.Limit = b.limit()
	case KindInsert:
		op.Type = "insertOne"
		if per := sh.Inserted / math.Max(1, sh.Count); per >= 1.5 {
			op.Type, op.BatchSize = "insertMany", int(math.Round(per))
		}
	case KindUpdate:
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
	case KindDelete:
		op.Type, op.Filter = "deleteOne", filter
		if sh.Multi {
			op.Type = "deleteMany"
		}
	case KindFindAndModify:
		op.Type, op.Filter = "findOneAndUpdate", filter
		op.Sort, op.Projection, op.Upsert = asLiteral(o.Sort), asLiteral(o.Projection), sh.Upsert
		op.Update = b.value("update", o.Update)
		if sh.Remove {
			op = config.Operation{Name: name, Weight: weight, Collection: op.Collection, Type: "deleteOne", Filter: filter}
			note = "findAndModify with remove: replayed as deleteOne (the document is not returned)"
		}
	case KindCount:
		op.Type, op.Filter, op.Limit = "countDocuments", filter, b.limit()
	case KindDistinct:
		op.Type = "aggregate"
		match := filter
		if match.Kind != config.KindDoc {
			match = config.Value{Kind: config.KindDoc}
		}
		op.Pipeline = config.Value{Kind: config.KindArray, Items: []config.Value{
			{Kind: config.KindDoc, Fields: []config.Field{{Key: "$match", Value: match}}},
			{Kind: config.KindDoc, Fields: []config.Field{{Key: "$group", Value: config.Value{Kind: config.KindDoc, Fields: []config.Field{{Key: "_id", Value: config.Value{Kind: config.KindScalar, Scalar: "$" + sh.Key1}}}}}}},
		}}
		note = "distinct " + sh.Key1 + ": replayed as the equivalent aggregation ($match, $group)"
	case KindAggregate:
		op.Type = "aggregate"
		op.Pipeline = b.value("pipeline", bson.RawValue{Type: bson.TypeArray, Value: o.Pipeline})
	}
	if op.Filter.Kind != config.KindDoc && op.Type != "insertOne" && op.Type != "insertMany" && op.Type != "aggregate" {
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
			if collapses(path) {
				a.Items = append(a.Items, b.hole(path+".[]", e))
				continue
			}
			if strings.HasPrefix(path, "pipeline") && !strings.Contains(path, "$match") {
				if d, ok := e.DocumentOK(); ok && d.Lookup("$match").Type == 0 {
					a.Items = append(a.Items, literal(e)) // other stages are shape, not data
					continue
				}
			}
			a.Items = append(a.Items, b.value(pathIndex(path, i), e))
		}
		return a
	}
	if s, ok := v.StringValueOK(); ok && strings.HasPrefix(s, "$") {
		return literal(v)
	}
	return b.hole(path, v)
}

// hole is the generator of one placeholder.
func (b *builder) hole(path string, v bson.RawValue) config.Value {
	f := b.sh.Holes[path]
	if f == nil {
		return literal(v)
	}
	if idPath(path) && f.dominant() == bson.TypeObjectID {
		b.keyedIDs = true
		return keyedID
	}
	return f.Generator(b.opts)
}

// idPath: the placeholder is a value of _id ({_id: x}, {_id: {$in: [...]}}).
func idPath(path string) bool {
	parts := strings.Split(path, ".")
	for i := len(parts) - 1; i >= 1; i-- {
		if !strings.HasPrefix(parts[i], "$") && parts[i] != "[]" {
			return parts[i] == "_id" && parts[0] == "filter"
		}
	}
	return false
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

func docValue(d bson.Raw) bson.RawValue {
	if d == nil {
		return bson.RawValue{}
	}
	return bson.RawValue{Type: bson.TypeEmbeddedDocument, Value: d}
}

func asLiteral(d bson.Raw) config.Value {
	if len(d) == 0 {
		return config.Value{}
	}
	return literal(docValue(d))
}

// describe is a shape in a line, for comments and the summary.
func describe(sh *Shape) string {
	return fmt.Sprintf("%s on %s.%s", sh.Kind, sh.DB, sh.Coll)
}
