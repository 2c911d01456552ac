package plgm

import (
	"fmt"
	"math"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

// operations turns the queries and the mix into weighted operations, the
// way plgm picks them: an operation type by its percentage (updates and
// deletes one document 90% of the time, many 10%), then one of the
// queries of that type at random; inserts and bulk inserts write a
// document made from a collection's definition, each collection equally
// often; an update or delete type with no query gets plgm's generated
// fallback, and a find or aggregate type with none is left out.
func (c *converter) operations() ([]config.Operation, error) {
	p := c.set.percent
	shares := map[string]float64{
		"find": float64(p["find"]), "aggregate": float64(p["aggregate"]),
		"updateOne": 0.9 * float64(p["update"]), "updateMany": 0.1 * float64(p["update"]),
		"deleteOne": 0.9 * float64(p["delete"]), "deleteMany": 0.1 * float64(p["delete"]),
	}
	byType := map[string][]*queryDef{}
	for _, q := range c.queries {
		byType[q.operation] = append(byType[q.operation], q)
	}
	var ops []config.Operation
	var es config.Errors
	for _, typ := range []string{"find", "updateOne", "updateMany", "deleteOne", "deleteMany", "aggregate"} {
		share, qs := shares[typ], byType[typ]
		if share <= 0 {
			continue
		}
		if len(qs) == 0 {
			if typ == "find" || typ == "aggregate" {
				c.warn("", 0, typ, "the mix gives %s %.0f%% but no query of that type is defined: plgm skips those operations, and so does mongoload", typ, share)
				continue
			}
			for _, col := range c.cols {
				ops = append(ops, c.fallback(typ, col, round(share/float64(len(c.cols)))))
			}
			continue
		}
		for _, q := range qs {
			op, err := c.operation(q, round(share/float64(len(qs))))
			if err != nil {
				es = append(es, asErrors(err)...)
				continue
			}
			if op != nil {
				ops = append(ops, *op)
			}
		}
	}
	for _, col := range c.cols {
		n := float64(len(c.cols))
		if w := round(float64(p["insert"]) / n); w > 0 {
			ops = append(ops, config.Operation{Name: c.opName("insert_" + col.name), Type: "insertOne", Collection: c.collName(col), Weight: w})
		}
		if w := round(float64(p["bulk_insert"]) / n); w > 0 {
			ops = append(ops, config.Operation{Name: c.opName("bulk_insert_" + col.name), Type: "insertMany", Collection: c.collName(col), Weight: w, BatchSize: max(c.set.insertBatch, 1)})
		}
	}
	if len(es) > 0 {
		return nil, es
	}
	if len(ops) == 0 {
		return nil, &config.Error{Kind: config.Invalid, Field: "mix", Msg: fmt.Sprintf("nothing to run: the mix (%s) has no operation with a query or a collection to run it on", mixText(p))}
	}
	return ops, nil
}

// round keeps a weight readable: 7.7143, not 7.714285714285714.
func round(w float64) float64 { return math.Round(w*1e4) / 1e4 }

// operation converts one query.
func (c *converter) operation(q *queryDef, weight float64) (*config.Operation, error) {
	col, err := c.collectionOf(q)
	if err != nil {
		return nil, err
	}
	where := fmt.Sprintf("[%d]", q.index)
	ph := c.placeholders(col, q)
	name := q.name
	if name == "" {
		name = fmt.Sprintf("%s_%s", q.operation, col.name)
	}
	op := &config.Operation{Name: c.opName(name), Type: q.operation, Collection: c.collName(col), Weight: weight, Upsert: q.upsert, Line: q.line}
	op.Filter = doc()
	if q.filter != nil {
		op.Filter = fromJSON(q.filter, ph, "")
	}
	switch q.operation {
	case "find":
		if q.projection != nil {
			op.Projection = fromJSON(q.projection, nil, "")
		}
		if q.sort != nil {
			op.Sort = fromJSON(q.sort, nil, "")
		}
		limit := q.limit
		if limit <= 0 {
			limit = c.set.findLimit
		}
		op.Limit = config.Limit{N: limit}
	case "updateOne", "updateMany":
		if q.update == nil || len(q.update.fields) == 0 {
			c.warn(q.file, q.line, where+".update", "an %s query needs an update document (plgm's would fail on every call); skipped", q.operation)
			return nil, nil
		}
		op.Update = fromJSON(q.update, ph, "")
	case "deleteMany":
		if len(op.Filter.Fields) == 0 {
			c.warn(q.file, q.line, where+".filter", "deleteMany with an empty filter would empty the collection; skipped")
			return nil, nil
		}
	case "aggregate":
		if q.pipeline == nil {
			c.warn(q.file, q.line, where+".pipeline", "an aggregate query needs a pipeline; skipped")
			return nil, nil
		}
		op.Pipeline = fromJSON(q.pipeline, ph, "")
		op.Filter = config.Value{}
	}
	if q.upsert && q.operation != "updateOne" && q.operation != "updateMany" {
		c.warn(q.file, q.line, where+".upsert", "upsert only applies to updates; ignored")
		op.Upsert = false
	}
	if q.operation != "find" && (q.projection != nil || q.sort != nil || q.limit != 0) {
		c.warn(q.file, q.line, where, "projection, sort and limit only apply to find queries; ignored")
	}
	return op, nil
}

// fallbackMisses reports whether plgm's fallback filter on col, a "val-"
// string _id, can never match: the collection has no integer key and its
// _id is an ObjectId (defined so, or left to the driver).
func (c *converter) fallbackMisses(col *collectionDef) bool {
	if col.key != nil {
		return false
	}
	for _, f := range col.fields {
		if f.name == "_id" {
			return strings.EqualFold(f.typ, "objectid")
		}
	}
	return true
}

// fallback is plgm's generated operation for an update or delete type
// with no query: it targets one document by the collection's key (plgm:
// by the shard key, or _id) and sets one of its fields, picked at random.
func (c *converter) fallback(typ string, col *collectionDef, weight float64) config.Operation {
	filter := doc(field("_id", gen("pattern", "pattern", "val-###")))
	if col.key != nil {
		filter = doc(field(col.key.name, c.keyGen(col.key, true)))
	}
	name := c.opName(typ + "_" + col.name + "_generated")
	if c.fallbackMisses(col) {
		if c.fix {
			filter = doc(field("_id", gen("key")))
			c.warn(col.file, col.line, name, "--fix-misses: plgm's fallback filter {_id: \"val-NNN\"} never matches the collection's ObjectId ids; this %s filters on {_id: {$gen: key}} instead, and %s's documents get integer keys 0..N-1 as _id, so it hits existing documents (results no longer compare with plgm's)", typ, col.name)
		} else {
			c.warn(col.file, col.line, name, "plgm's fallback filter {_id: \"val-NNN\"} can never match: %s's _id values are ObjectIds, so every %s finds nothing and measures a miss, as in plgm; import with --fix-misses for one that hits existing documents", col.name, typ)
		}
	}
	op := config.Operation{Name: name, Type: typ, Collection: c.collName(col), Weight: weight, Filter: filter}
	if strings.HasPrefix(typ, "update") {
		var choices []config.Value
		for _, f := range col.fields {
			if f.name != "_id" && f != col.key {
				choices = append(choices, doc(field(f.name, c.template(col, f))))
			}
		}
		set := doc(field("updated_at", gen("long")))
		if len(choices) > 0 {
			set = gen("enum", "values", array(choices...))
		}
		op.Update = doc(field("$set", set))
	}
	return op
}
