package source

import (
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// entry is one recorded operation before it is read: the profiler's
// document or a log line's attr, in the fields both share.
type entry struct {
	opType   string   // profiler op / log attr.type: query, insert, update, remove, command, getmore
	ns       string   // db.coll (or db.$cmd)
	cmd      bson.Raw // the command (per statement for update and remove)
	origin   bson.Raw // getmore: the command that opened the cursor
	returned int64
	inserted int64
	millis   int64
	plan     string
	ts       time.Time
	conn     string // a log line's connection (ctx), for capture --trace
	app      string // a log line's appName
}

// unsupportedCommands cannot be replayed by a workload: listed and skipped.
var unsupportedCommands = map[string]bool{"mapReduce": true, "mapreduce": true, "eval": true, "$eval": true, "group": true}

// read turns e into an operation, or counts why it is not one: an
// operation a workload file cannot carry (odd) is counted apart.
func (e *entry) read(t *Tally) (Op, bool) {
	o, ok := e.readOp(t)
	if !ok {
		return o, false
	}
	if why := odd(&o); why != "" {
		t.odd(why)
		return Op{}, false
	}
	return o, true
}

func (e *entry) readOp(t *Tally) (Op, bool) {
	if e.opType == "getmore" {
		// Folded into the command that opened the cursor: its documents
		// count for that shape, the getMore is no operation of its own.
		if e.origin == nil {
			t.skip("getMore without its originating command")
			return Op{}, false
		}
		o, ok := (&entry{opType: "command", ns: e.ns, cmd: e.origin, ts: e.ts}).read(t)
		o.Count, o.Returned = 0, e.returned
		return o, ok
	}
	if e.cmd.Lookup("$truncated").Type != 0 {
		t.Truncated++
		return Op{}, false
	}
	db, coll, _ := strings.Cut(e.ns, ".")
	o := Op{DB: db, Coll: BucketsOwner(coll), Returned: e.returned, Inserted: e.inserted, Millis: e.millis, Plan: e.plan, TS: e.ts, Count: 1}
	if hasWhere(e.cmd) {
		t.unsupported("$where")
		return Op{}, false
	}
	switch e.opType {
	case "update":
		return o, o.statement(KindUpdate, e.cmd, t)
	case "remove":
		return o, o.statement(KindDelete, e.cmd, t)
	case "insert":
		o.Kind = KindInsert
		if o.Inserted == 0 {
			o.Inserted = 1
		}
		return o, true
	}
	return o, o.command(e.cmd, t)
}

// statement reads an update or delete statement: {q, u, multi, upsert}
// or {q, limit}.
func (o *Op) statement(kind string, st bson.Raw, t *Tally) bool {
	o.Kind = kind
	o.Filter = doc(st.Lookup("q"))
	o.Update = st.Lookup("u")
	o.Multi, _ = st.Lookup("multi").BooleanOK()
	o.Upsert, _ = st.Lookup("upsert").BooleanOK()
	if kind == KindDelete {
		o.Multi = mongodb.Number(st.Lookup("limit")) == 0
	}
	if o.Coll == "$cmd" || o.Coll == "" {
		t.skip("a write statement without its collection")
		return false
	}
	return true
}

// command reads a command: find, aggregate, count, distinct,
// findAndModify, or an insert/update/delete command.
func (o *Op) command(cmd bson.Raw, t *Tally) bool {
	els, err := cmd.Elements()
	if err != nil || len(els) == 0 {
		t.skip("an unreadable command")
		return false
	}
	name := els[0].Key()
	if unsupportedCommands[name] {
		t.unsupported(name)
		return false
	}
	if c, ok := els[0].Value().StringValueOK(); ok {
		o.Coll = BucketsOwner(c)
	}
	switch name {
	case "find":
		o.Kind = KindFind
		o.Filter, o.Sort, o.Projection = doc(cmd.Lookup("filter")), doc(cmd.Lookup("sort")), doc(cmd.Lookup("projection"))
		o.Limit = int64(mongodb.Number(cmd.Lookup("limit")))
		if b, _ := cmd.Lookup("singleBatch").BooleanOK(); b && o.Limit == 0 {
			o.Limit = 1
		}
	case "aggregate":
		o.Kind = KindAggregate
		p, ok := cmd.Lookup("pipeline").ArrayOK()
		if !ok {
			t.skip("aggregates whose pipeline is not an array")
			return false
		}
		o.Pipeline = bson.Raw(p)
		if hasStage(o.Pipeline, "$out", "$merge") {
			t.unsupported("aggregate with $out/$merge")
			return false
		}
		o.countDocuments()
	case "count":
		o.Kind, o.Filter = KindCount, doc(cmd.Lookup("query"))
		o.Limit = int64(mongodb.Number(cmd.Lookup("limit")))
	case "distinct":
		o.Kind, o.Filter = KindDistinct, doc(cmd.Lookup("query"))
		o.Key, _ = cmd.Lookup("key").StringValueOK()
	case "findAndModify", "findandmodify":
		o.Kind, o.Filter, o.Sort, o.Projection = KindFindAndModify, doc(cmd.Lookup("query")), doc(cmd.Lookup("sort")), doc(cmd.Lookup("fields"))
		o.Update = cmd.Lookup("update")
		o.Remove, _ = cmd.Lookup("remove").BooleanOK()
		o.Upsert, _ = cmd.Lookup("upsert").BooleanOK()
	case "insert":
		o.Kind = KindInsert
		if o.Inserted == 0 {
			o.Inserted = max(1, int64(arrayLen(cmd.Lookup("documents"))))
		}
	default:
		t.skip("command " + name + " (not an operation a workload replays)")
		return false
	}
	if o.Coll == "" || o.Coll == "$cmd" {
		t.skip("command " + name + " without a collection")
		return false
	}
	return true
}

// hasWhere reports whether a $where appears anywhere in d.
func hasWhere(d bson.Raw) bool {
	els, err := d.Elements()
	if err != nil {
		return false
	}
	for _, e := range els {
		if e.Key() == "$where" {
			return true
		}
		v := e.Value()
		if sub, ok := v.DocumentOK(); ok && hasWhere(sub) {
			return true
		}
		if arr, ok := v.ArrayOK(); ok && hasWhere(bson.Raw(arr)) {
			return true
		}
	}
	return false
}

func hasStage(pipeline bson.Raw, names ...string) bool {
	vals, _ := bson.RawArray(pipeline).Values()
	for _, v := range vals {
		if st, ok := v.DocumentOK(); ok {
			for _, n := range names {
				if st.Lookup(n).Type != 0 {
					return true
				}
			}
		}
	}
	return false
}

func doc(v bson.RawValue) bson.Raw {
	d, _ := v.DocumentOK()
	return d
}

func arrayLen(v bson.RawValue) int {
	a, ok := v.ArrayOK()
	if !ok {
		return 0
	}
	vals, _ := a.Values()
	return len(vals)
}

// countDocuments reads the aggregation that drivers' countDocuments sends
// ($match, maybe $skip and $limit, then {$group: {_id: 1, n: {$sum: 1}}})
// as the count it is, so that it is replayed as countDocuments, and a
// capture of the replay finds the same shape.
func (o *Op) countDocuments() {
	vals, _ := bson.RawArray(o.Pipeline).Values()
	if len(vals) < 2 {
		return
	}
	last, _ := vals[len(vals)-1].DocumentOK()
	g, ok := last.Lookup("$group").DocumentOK()
	if !ok || mongodb.Number(g.Lookup("_id")) != 1 || mongodb.Number(g.Lookup("n", "$sum")) != 1 {
		return
	}
	var filter bson.Raw
	limit := int64(0)
	for _, v := range vals[:len(vals)-1] {
		st, _ := v.DocumentOK()
		els, _ := st.Elements()
		if len(els) != 1 {
			return
		}
		switch els[0].Key() {
		case "$match":
			filter, _ = els[0].Value().DocumentOK()
		case "$limit":
			limit = int64(mongodb.Number(els[0].Value()))
		default:
			return
		}
	}
	o.Kind, o.Filter, o.Limit, o.Pipeline = KindCount, filter, limit, nil
	if o.Filter == nil {
		o.Filter, _ = bson.Marshal(bson.D{})
	}
}
