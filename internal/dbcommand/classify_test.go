package dbcommand

import (
	"fmt"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func raw(t *testing.T, d bson.D) bson.Raw {
	t.Helper()
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type e = bson.E

// TestClassify: each kind of command, what it writes and what it alters,
// whatever its database.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		db   string
		cmd  bson.D
		want string // kind ns writes alters database
	}{
		{"d", bson.D{{Key: "find", Value: "c"}}, "read d.c [] [] "},
		{"d", bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$match", Value: bson.D{}}}}}}, "read d.c [] [] "},
		{"d", bson.D{{Key: "insert", Value: "c"}}, "write d.c [{d.c insert}] [] "},
		{"d", bson.D{{Key: "findAndModify", Value: "c"}}, "write d.c [{d.c findAndModify}] [] "},
		// A pipeline's targets, in every form the server takes; $db wins over the entry's database.
		{"x", bson.D{{Key: "aggregate", Value: "items"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$out", Value: bson.D{{Key: "db", Value: "crm"}, {Key: "coll", Value: "orders"}}}}}}, {Key: "$db", Value: "rdb"}},
			"write rdb.items [{crm.orders $out}] [] "},
		{"d", bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$out", Value: "o"}}}}}, "write d.c [{d.o $out}] [] "},
		{"d", bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$merge", Value: bson.D{{Key: "into", Value: bson.D{{Key: "db", Value: "crm"}, {Key: "coll", Value: "people"}}}}}}}}},
			"write d.c [{crm.people $merge}] [] "},
		{"d", bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$merge", Value: "m"}}}}}, "write d.c [{d.m $merge}] [] "},
		{"d", bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$out", Value: int32(3)}}}}}, "write d.c [{d.? $out}] [] "},
		{"d", bson.D{{Key: "mapReduce", Value: "c"}, {Key: "out", Value: bson.D{{Key: "merge", Value: "m"}, {Key: "db", Value: "o"}}}}, "write d.c [{o.m mapReduce out}] [] "},
		{"d", bson.D{{Key: "mapReduce", Value: "c"}, {Key: "out", Value: bson.D{{Key: "inline", Value: 1}}}}, "read d.c [] [] "},
		{"admin", bson.D{{Key: "bulkWrite", Value: 1}, {Key: "nsInfo", Value: bson.A{bson.D{{Key: "ns", Value: "crm.people"}}}}}, "write admin.$cmd [{crm.people bulkWrite}] [] "},
		// explain runs no write, unless a pipeline's.
		{"d", bson.D{{Key: "explain", Value: bson.D{{Key: "update", Value: "c"}}}}, "read d.c [] [] "},
		{"d", bson.D{{Key: "explain", Value: bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$out", Value: "o"}}}}}}}, "write d.c [{d.o $out}] [] "},
		{"crm", bson.D{{Key: "dropIndexes", Value: "people"}, {Key: "index", Value: "ssn_1"}}, "DDL crm.people [] [crm.people] "},
		{"crm", bson.D{{Key: "createIndexes", Value: "people"}}, "DDL crm.people [] [crm.people] "},
		{"crm", bson.D{{Key: "drop", Value: "orders"}}, "DDL crm.orders [] [crm.orders] "},
		{"admin", bson.D{{Key: "renameCollection", Value: "crm.orders"}, {Key: "to", Value: "crm.moved"}}, "DDL admin.$cmd [] [crm.orders crm.moved] "},
		{"d", bson.D{{Key: "cloneCollectionAsCapped", Value: "c"}, {Key: "toCollection", Value: "k"}}, "DDL d.c [] [d.k] "},
		{"crm", bson.D{{Key: "dropDatabase", Value: 1}}, "DDL crm.$cmd [] [] crm"},
		{"admin", bson.D{{Key: "shutdown", Value: 1}}, "admin admin.$cmd [] [] "},
		{"admin", bson.D{{Key: "createUser", Value: "u"}}, "admin admin.u [] [] "},
		{"d", bson.D{{Key: "someCommandOfMongoDB9", Value: "c"}}, "admin d.c [] [] "},
		{"admin", bson.D{{Key: "hello", Value: 1}}, "driver admin.$cmd [] [] "},
		{"d", bson.D{}, "admin d.$cmd [] [] "},
	} {
		got := Classify(c.db, raw(t, c.cmd))
		s := fmt.Sprintf("%s %s %v %v %s", got.Kind, got.NS, got.Writes, got.Alters, got.Database)
		if s != c.want {
			t.Errorf("%v on %s: %q, want %q", c.cmd, c.db, s, c.want)
		}
	}
}

// TestPolicySkip: what is sent without a flag and with each, and why the
// rest is not, naming the command.
func TestPolicySkip(t *testing.T) {
	cls := func(db string, cmd ...e) Class { return Classify(db, raw(t, bson.D(cmd))) }
	find := cls("d", e{Key: "find", Value: "c"})
	insert := cls("d", e{Key: "insert", Value: "c"})
	drop := cls("crm", e{Key: "dropIndexes", Value: "people"})
	dropAdmin := cls("admin", e{Key: "drop", Value: "system.users"})
	dropDB := cls("crm", e{Key: "dropDatabase", Value: 1})
	shutdown := cls("admin", e{Key: "shutdown", Value: 1})
	toAdmin := cls("rdb", e{Key: "aggregate", Value: "items"}, e{Key: "pipeline", Value: bson.A{bson.D{{Key: "$out", Value: bson.D{{Key: "db", Value: "admin"}, {Key: "coll", Value: "x"}}}}}})
	intoMeta := cls("rdb", e{Key: "insert", Value: MetaCollection})
	for _, c := range []struct {
		p    Policy
		c    Class
		want string // "" sent, else a part of why not
	}{
		{Policy{}, find, ""},
		{Policy{}, insert, ""},
		{Policy{}, drop, "dropIndexes: DDL"},
		{Policy{DDL: true}, drop, ""},
		{Policy{DDL: true}, dropAdmin, "drop on the server's own database admin"},
		{Policy{DDL: true, Admin: true}, dropDB, "dropDatabase: never sent"},
		{Policy{DDL: true}, shutdown, "shutdown: no data operation"},
		{Policy{Admin: true}, shutdown, ""},
		{Policy{DDL: true, Admin: true}, cls("admin", e{Key: "applyOps", Value: bson.A{}}), "applyOps: never sent"},
		{Policy{DDL: true, Admin: true}, cls("admin", e{Key: "_shardsvrDropCollection", Value: "c"}), "_shardsvrDropCollection: never sent"},
		{Policy{DDL: true, Admin: true}, toAdmin, "aggregate writing into the server's own database admin"},
		{Policy{}, intoMeta, "mongoload's record"},
		{Policy{Admin: true}, cls("admin", e{Key: "hello", Value: 1}), WhyDriver},
	} {
		got := c.p.Skip(c.c)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%+v, %s: skip %q, want %q", c.p, c.c.Name, got, c.want)
		}
	}
}
