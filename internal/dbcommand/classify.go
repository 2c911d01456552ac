// Package dbcommand is the ownership rule's reading of a raw database
// command, whatever file it came from (a capture's trace, a MongoDB
// traffic recording, anything else turned into commands sent as they
// are): what kind of command it is (a driver's own, a data read, a data
// write, DDL, server administration) and which namespaces it reads,
// writes or alters. Classify reads; Policy says which kinds a run sends.
// Whether a namespace may be written or altered (mongoload created it, or
// the user said so) is decided at setup, by internal/mongodb's ownership
// rule, over the namespaces Classify names: every command goes through
// both, so no file can send what a workload could not (docs/replay.md).
//
// The kinds are an allow-list: a command this package does not know is
// Admin, sent only when the user asks for server administration in words.
package dbcommand

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Kind is what a command does to the server.
type Kind uint8

// The kinds, safest first.
const (
	// Driver: what a driver sends for itself (cursors, sessions,
	// handshakes, authentication, transactions' ends) or a recorder's own
	// command; no operation of the application.
	Driver Kind = iota
	// Read: reads data or the catalogue, changes nothing.
	Read
	// Write: changes documents of the namespaces in Class.Writes.
	Write
	// DDL: creates, drops, renames, re-indexes or alters the collections
	// in Class.Alters, or drops the database Class.Database.
	DDL
	// Admin: server administration (shutdown, users and roles,
	// setParameter, fsync, ...) and every command not listed here.
	Admin
)

var kindNames = [...]string{"driver", "read", "write", "DDL", "admin"}

func (k Kind) String() string { return kindNames[k] }

// Target is a namespace a command writes into, and how ("insert",
// "$out", "$merge", "mapReduce out", ...).
type Target struct {
	NS  string // database.collection
	How string
}

// Class is what Classify read of one command.
type Class struct {
	Name string // the command's name as sent (its first field)
	Kind Kind
	// NS is the namespace it runs on: database.collection, or
	// database.$cmd when it names no collection (aggregate: 1, dropDatabase).
	NS string
	// Writes are the namespaces a Write changes documents of, its own
	// collection's and its pipeline's targets'.
	Writes []Target
	// Alters are the collections a DDL command creates, drops, renames,
	// re-indexes or alters (a rename: both names).
	Alters []string
	// Database is the database a DDL command drops (dropDatabase).
	Database string
	// Opaque: administration that writes, drops or copies data under
	// another name (applyOps, eval, a server's internal "_..." command),
	// which the ownership rule cannot check: never sent.
	Opaque bool
}

// IndexOnly reports whether a DDL command only builds indexes
// (createIndexes), which --create-indexes allows on a collection that
// existed before.
func (c Class) IndexOnly() bool { return c.Kind == DDL && c.Name == "createIndexes" }

// driverOwn are a driver's and a recorder's own commands.
var driverOwn = set("getMore", "killCursors", "endSessions", "hello", "isMaster", "ismaster", "ping", "saslStart",
	"saslContinue", "authenticate", "logout", "buildInfo", "buildinfo", "getnonce", "startTrafficRecording",
	"stopTrafficRecording", "commitTransaction", "abortTransaction", "refreshSessions", "startSession")

// reads change nothing: the application's queries and its look at the
// catalogue.
var reads = set("find", "count", "distinct", "listCollections", "listIndexes", "listDatabases", "collStats", "dbStats")

// writesOwn change documents of their own collection.
var writesOwn = set("insert", "update", "delete", "findAndModify", "findandmodify")

// ddlOwn alter the collection they name (in their database).
var ddlOwn = set("create", "drop", "createIndexes", "dropIndexes", "deleteIndexes", "reIndex", "collMod",
	"convertToCapped", "compact", "createSearchIndexes", "dropSearchIndex", "updateSearchIndex")

// opaque write, drop or copy data the rule cannot see: never sent.
var opaque = set("applyOps", "doTxn", "eval", "$eval", "godinsert", "emptycapped", "cloneCollection", "clone",
	"copydb", "cleanupOrphaned", "replSetResizeOplog")

// ddlFull alter the collection they name by its full namespace.
var ddlFull = set("shardCollection", "reshardCollection", "refineCollectionShardKey", "unshardCollection", "moveCollection")

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Classify reads cmd, a command sent on database db (its $db; a command
// that carries $db is read on that one).
func Classify(db string, cmd bson.Raw) Class {
	els, err := cmd.Elements()
	if err != nil || len(els) == 0 {
		return Class{Kind: Admin, NS: db + ".$cmd"}
	}
	if d, ok := cmd.Lookup("$db").StringValueOK(); ok && d != "" {
		db = d
	}
	name := els[0].Key()
	coll, named := els[0].Value().StringValueOK()
	if !named || coll == "" {
		coll = "$cmd"
	}
	c := Class{Name: name, NS: db + "." + coll, Kind: Admin}
	on := func(s string) string { return db + "." + s }
	switch {
	case driverOwn[name]:
		c.Kind = Driver
	case reads[name]:
		c.Kind = Read
	case writesOwn[name]:
		c.Kind, c.Writes = Write, []Target{{NS: c.NS, How: name}}
	case name == "aggregate":
		c.Kind = Read
		if outs := PipelineTargets(cmd.Lookup("pipeline"), db); len(outs) > 0 {
			c.Kind, c.Writes = Write, outs
		}
	case name == "mapReduce" || name == "mapreduce":
		c.Kind = Read
		if t, ok := mapReduceOut(cmd.Lookup("out"), db); ok {
			c.Kind, c.Writes = Write, []Target{t}
		}
	case name == "bulkWrite":
		c.Kind, c.Writes = Write, bulkTargets(cmd)
	case name == "explain":
		c = explained(db, cmd)
	case ddlOwn[name] && named:
		c.Kind, c.Alters = DDL, []string{c.NS}
	case ddlFull[name] && named: // named by its full namespace, sent to admin
		c.Kind, c.Alters, c.NS = DDL, []string{full(coll)}, db+".$cmd"
	case name == "renameCollection" && named:
		to, _ := cmd.Lookup("to").StringValueOK()
		c.Kind, c.Alters, c.NS = DDL, []string{full(coll), full(to)}, db+".$cmd"
	case name == "cloneCollectionAsCapped" && named:
		to, _ := cmd.Lookup("toCollection").StringValueOK()
		c.Kind, c.Alters = DDL, []string{on(to)}
	case name == "dropDatabase":
		c.Kind, c.Database = DDL, db
	default:
		c.Opaque = opaque[name] || strings.HasPrefix(name, "_")
	}
	return c
}

// full is a namespace given in full ("d.c"); one that does not read is
// "?.?", which is never one mongoload created.
func full(ns string) string {
	if d, c, ok := strings.Cut(ns, "."); ok && d != "" && c != "" {
		return ns
	}
	return "?.?"
}

// explained is an explain's class: a read when what it explains reads
// (the server runs the plan, not the writes, but a pipeline's $out is
// kept as a write, to be safe), else what it explains is.
func explained(db string, cmd bson.Raw) Class {
	inner, ok := cmd.Lookup("explain").DocumentOK()
	if !ok {
		return Class{Name: "explain", Kind: Admin, NS: db + ".$cmd"}
	}
	c := Classify(db, inner)
	c.Name = "explain"
	if c.Kind == Write && writesOwn[c.Writes[0].How] {
		c.Kind, c.Writes = Read, nil
	}
	return c
}

// PipelineTargets lists the namespaces a pipeline's stages write into,
// in the forms the server takes ({$out: "c"}, {$out: {db, coll}},
// {$merge: "c"}, {$merge: {into: "c"}}, {$merge: {into: {db, coll}}});
// db is the database a target names none of. A target that does not read
// is kept as "?" in db, so that it can never pass for one mongoload created.
func PipelineTargets(pipeline bson.RawValue, db string) []Target {
	stages, ok := pipeline.ArrayOK()
	if !ok {
		return nil
	}
	vals, _ := stages.Values()
	var out []Target
	for _, v := range vals {
		stage, ok := v.DocumentOK()
		if !ok {
			continue
		}
		for _, how := range WritingStages {
			t := stage.Lookup(how)
			if t.Type == 0 {
				continue
			}
			if d, ok := t.DocumentOK(); ok && how == "$merge" {
				t = d.Lookup("into")
			}
			out = append(out, Target{NS: namespace(t, db), How: how})
		}
	}
	return out
}

// WritingStages are the pipeline stages that write: the workload's
// pipelines (internal/workload) and recorded ones alike.
var WritingStages = []string{"$out", "$merge"}

// namespace reads "c" or {db: "d", coll: "c"}.
func namespace(v bson.RawValue, db string) string {
	if s, ok := v.StringValueOK(); ok && s != "" {
		return db + "." + s
	}
	if d, ok := v.DocumentOK(); ok {
		if s, ok := d.Lookup("db").StringValueOK(); ok && s != "" {
			db = s
		}
		if s, ok := d.Lookup("coll").StringValueOK(); ok && s != "" {
			return db + "." + s
		}
	}
	return db + ".?"
}

// mapReduceOut is where a mapReduce writes: out: "c", or {replace|merge|
// reduce: "c", db: "d"}; none for {inline: 1}.
func mapReduceOut(v bson.RawValue, db string) (Target, bool) {
	if s, ok := v.StringValueOK(); ok {
		return Target{NS: db + "." + s, How: "mapReduce out"}, true
	}
	d, ok := v.DocumentOK()
	if !ok || d.Lookup("inline").Type != 0 {
		return Target{}, false
	}
	if s, ok := d.Lookup("db").StringValueOK(); ok && s != "" {
		db = s
	}
	for _, k := range []string{"replace", "merge", "reduce"} {
		if s, ok := d.Lookup(k).StringValueOK(); ok {
			return Target{NS: db + "." + s, How: "mapReduce out"}, true
		}
	}
	return Target{NS: db + ".?", How: "mapReduce out"}, true
}

// bulkTargets are the namespaces of a bulkWrite (MongoDB 8's, sent to
// admin): its nsInfo's; one that does not read is "?".
func bulkTargets(cmd bson.Raw) []Target {
	arr, _ := cmd.Lookup("nsInfo").ArrayOK()
	vals, _ := arr.Values()
	var out []Target
	for _, v := range vals {
		d, _ := v.DocumentOK()
		ns, _ := d.Lookup("ns").StringValueOK()
		out = append(out, Target{NS: full(ns), How: "bulkWrite"})
	}
	if len(out) == 0 {
		out = []Target{{NS: "?.?", How: "bulkWrite"}}
	}
	return out
}
