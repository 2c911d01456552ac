package replay

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/dbcommand"
)

func raw(t *testing.T, d bson.D) bson.Raw {
	t.Helper()
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCommand: what a replay sends for each kind of captured entry.
func TestCommand(t *testing.T) {
	lsid := bson.D{{Key: "id", Value: "x"}}
	for _, c := range []struct {
		name   string
		op     string
		cmd    bson.D
		want   bson.D // nil: not sent
		notFor string
	}{
		// The driver's session, cluster time, database and routing are the source's: left out.
		{"find", "query", bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: bson.D{{Key: "a", Value: int32(5)}}}, {Key: "lsid", Value: lsid},
			{Key: "$clusterTime", Value: bson.D{}}, {Key: "$db", Value: "d"}, {Key: "$readPreference", Value: bson.D{}}, {Key: "batchSize", Value: int32(2)}},
			bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: bson.D{{Key: "a", Value: int32(5)}}}, {Key: "batchSize", Value: int32(2)}}, ""},
		// A read concern keeps its level, not the source's clock.
		{"read concern", "query", bson.D{{Key: "find", Value: "c"}, {Key: "readConcern", Value: bson.D{{Key: "level", Value: "majority"}, {Key: "afterClusterTime", Value: int64(1)}}}},
			bson.D{{Key: "find", Value: "c"}, {Key: "readConcern", Value: bson.D{{Key: "level", Value: "majority"}}}}, ""},
		// The profiler records an update's statement: sent in its command.
		{"update statement", "update", bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: int32(1)}}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "n", Value: "v"}}}}}},
			bson.D{{Key: "update", Value: "c"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: int32(1)}}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "n", Value: "v"}}}}}}}}}, ""},
		// A statement that carries session fields (a trace another tool wrote) is sent without them: the server refuses an unknown field.
		{"update statement with a session", "update", bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: int32(1)}}}, {Key: "u", Value: bson.D{{Key: "$inc", Value: bson.D{{Key: "n", Value: int32(1)}}}}}, {Key: "$db", Value: "d"}, {Key: "lsid", Value: lsid}},
			bson.D{{Key: "update", Value: "c"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: int32(1)}}}, {Key: "u", Value: bson.D{{Key: "$inc", Value: bson.D{{Key: "n", Value: int32(1)}}}}}}}}}, ""},
		{"delete statement", "remove", bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: int32(1)}}}, {Key: "limit", Value: int32(1)}},
			bson.D{{Key: "delete", Value: "c"}, {Key: "deletes", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: int32(1)}}}, {Key: "limit", Value: int32(1)}}}}}, ""},
		// An insert keeps its documents, and so their _ids.
		{"insert", "insert", bson.D{{Key: "insert", Value: "c"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: int32(7)}}}}, {Key: "lsid", Value: lsid}},
			bson.D{{Key: "insert", Value: "c"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: int32(7)}}}}}, ""},
		{"insert without its documents", "insert", bson.D{{Key: "insert", Value: "c"}, {Key: "ordered", Value: true}}, nil, WhyNoDocs},
		{"getMore", "getmore", bson.D{{Key: "getMore", Value: int64(9)}, {Key: "collection", Value: "c"}}, nil, WhyGetMore},
		{"truncated", "query", bson.D{{Key: "$truncated", Value: "find..."}}, nil, WhyTruncated},
		{"killCursors", "command", bson.D{{Key: "killCursors", Value: "c"}}, nil, dbcommand.WhyDriver},
		// Not a data operation: not sent without the flag that asks for it, named.
		{"dropIndexes", "command", bson.D{{Key: "dropIndexes", Value: "c"}, {Key: "index", Value: "a_1"}}, nil,
			"dropIndexes: DDL (it creates, drops, renames, re-indexes or alters a collection): sent only with --replay-ddl"},
		{"shutdown", "command", bson.D{{Key: "shutdown", Value: 1}}, nil,
			"shutdown: no data operation (server administration, or a command mongoload does not know): sent only with --replay-admin"},
	} {
		got, _, why := command(c.op, "d.c", raw(t, c.cmd), dbcommand.Policy{})
		switch {
		case c.want == nil && why != c.notFor:
			t.Errorf("%s: sent %v (why %q), want not sent for %q", c.name, bson.Raw(got), why, c.notFor)
		case c.want != nil && bson.Raw(got).String() != raw(t, c.want).String():
			t.Errorf("%s: sent %v, want %v", c.name, bson.Raw(got), raw(t, c.want))
		}
	}
}
