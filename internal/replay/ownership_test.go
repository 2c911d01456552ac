package replay

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/dbcommand"
	"github.com/mongoload/mongoload/internal/trace"
)

// TestTracePlanCarriesWhatCommandsWriteAndAlter: a capture's trace (a log's
// entries, as capture --trace writes them) is read through the same rule
// as a recording: the plan's collections are every namespace written into
// (a pipeline's $out in another database included) or, with --replay-ddl,
// altered, each marked with the command that does, for setup's ownership
// rule; the server's own namespaces are none of them; DDL without the flag
// and administration are counted as not sent, by name.
func TestTracePlanCarriesWhatCommandsWriteAndAlter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.trace")
	w, err := trace.Create(path, trace.Header{Version: trace.Version, Tool: "test"})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1_700_000_000, 0)
	addShaped := func(ns, op, shape string, cmd bson.D) {
		b, err := bson.Marshal(cmd)
		if err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Millisecond)
		if shape == "" {
			shape = string(b)
		}
		if err := w.Add(trace.Entry{Start: at, Dur: time.Millisecond, NS: ns, Op: op, Cmd: b, Shape: shape}); err != nil {
			t.Fatal(err)
		}
	}
	add := func(ns, op string, cmd bson.D) { addShaped(ns, op, "", cmd) }
	add("app.items", "query", bson.D{{Key: "find", Value: "items"}})
	add("app.items", "command", bson.D{{Key: "aggregate", Value: "items"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$out", Value: bson.D{{Key: "db", Value: "crm"}, {Key: "coll", Value: "orders"}}}}}}})
	add("crm.people", "command", bson.D{{Key: "dropIndexes", Value: "people"}, {Key: "index", Value: "ssn_1"}})
	add("admin.$cmd", "command", bson.D{{Key: "renameCollection", Value: "crm.orders"}, {Key: "to", Value: "crm.moved"}})
	add("admin.$cmd", "command", bson.D{{Key: "shutdown", Value: 1}})
	add("crm.$cmd", "command", bson.D{{Key: "aggregate", Value: 1}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$documents", Value: bson.A{}}}}}})
	add("app.items", "command", bson.D{{Key: "insert", Value: "system.js"}, {Key: "documents", Value: bson.A{bson.D{}}}})
	// One shape in two databases (a recording's shapes name no database):
	// two operations, each sent where the rule checked it.
	addShaped("app.items", "insert", "insert items", bson.D{{Key: "insert", Value: "items"}, {Key: "documents", Value: bson.A{bson.D{}}}})
	addShaped("crm.items", "insert", "insert items", bson.D{{Key: "insert", Value: "items"}, {Key: "documents", Value: bson.A{bson.D{}}}})
	if err := w.Close(trace.Trailer{}); err != nil {
		t.Fatal(err)
	}

	plain, err := Scan(path, dbcommand.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if got := plan(plain); got != "app.items written by the trace's insert writes into it (insert); crm.orders written by the trace's aggregate writes into it ($out); crm.items written by the trace's insert writes into it (insert); " {
		t.Errorf("without flags, the plan's collections: %q", got)
	}
	for why, n := range map[string]int64{
		"dropIndexes: DDL (it creates, drops, renames, re-indexes or alters a collection): sent only with --replay-ddl":                                   1,
		"renameCollection: DDL (it creates, drops, renames, re-indexes or alters a collection): sent only with --replay-ddl":                              1,
		"shutdown: no data operation (server administration, or a command mongoload does not know): sent only with --replay-admin":                        1,
		"insert writing into a system collection (app.system.js): never sent (mongoload writes only into collections it created, and creates none there)": 1,
	} {
		if plain.Skipped[why] != n {
			t.Errorf("not sent %v: want %d under %q", plain.Skipped, n, why)
		}
	}
	if plain.Sent != 5 {
		t.Errorf("%d sent, want the find, the $out, the read of crm.$cmd and the two inserts", plain.Sent)
	}
	var sentOn []string
	for _, op := range plain.Plan().Ops {
		sentOn = append(sentOn, op.Collection.Namespace())
	}
	if slices.Sort(sentOn); strings.Join(sentOn, " ") != "app.items app.items app.items crm.$cmd crm.items" {
		t.Errorf("operations sent on %v: want the find, the $out and one insert on app.items, the read on crm.$cmd, the other insert on crm.items", sentOn)
	}

	ddl, err := Scan(path, dbcommand.Policy{DDL: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := plan(ddl); got != "app.items written by the trace's insert writes into it (insert); crm.orders written by the trace's aggregate writes into it ($out) altered by the trace's renameCollection alters it; "+
		"crm.people altered by the trace's dropIndexes alters it left missing; crm.moved altered by the trace's renameCollection alters it left missing; crm.items written by the trace's insert writes into it (insert); " {
		t.Errorf("with --replay-ddl, the plan's collections: %q", got)
	}
}

// plan is the plan's collections and what marks them, in order.
func plan(tr *Trace) string {
	s := ""
	for _, c := range tr.Plan().Collections {
		s += c.Namespace()
		if !c.Writes && c.AlteredBy == "" {
			s += " read"
		}
		if c.WrittenBy != "" {
			s += " written by " + c.WrittenBy
		}
		if c.AlteredBy != "" {
			s += " altered by " + c.AlteredBy
		}
		if c.LeaveMissing {
			s += " left missing"
		}
		s += "; "
	}
	return s
}
