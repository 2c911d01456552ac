package recording_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/recording"
	"github.com/mongoload/mongoload/internal/replay"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestRecordedCommandsPassTheOwnershipRule replays recordings that hold,
// after an application's inserts into a database of its own, one command
// that writes into, re-indexes, renames or drops collections mongoload did
// not create (fx: seeded by the test, as someone else's data), or stops the
// server. Without the flags that ask for them in words, none reaches fx:
// its documents and indexes are as they were, admin holds no new
// collection, and the command is counted under "not sent" by name; a
// pipeline's write into fx is refused (exit 19) before anything is
// created. With --replay-ddl, DDL reaches the collections the replay owns
// only (--create-indexes: an index build on fx too).
func TestRecordedCommandsPassTheOwnershipRule(t *testing.T) {
	ctx := context.Background()
	uri := testserver.URI(t)
	cl, err := mongodb.Connect(ctx, config.Connection{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	fx, app := fmt.Sprintf("recfx_%d", os.Getpid()), fmt.Sprintf("recapp_%d", os.Getpid())
	run := func(cmd ...bson.D) {
		t.Helper()
		for _, c := range cmd {
			if _, err := cl.Command(ctx, dbOf(c, fx), c); err != nil {
				t.Fatalf("%v: %v", c, err)
			}
		}
	}
	drop := func() {
		for _, db := range []string{fx, app} {
			_, _ = cl.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}})
		}
	}
	t.Cleanup(drop)
	seed := func() {
		drop()
		run(bson.D{{Key: "insert", Value: "people"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: 1}, {Key: "ssn", Value: "a"}}, bson.D{{Key: "_id", Value: 2}, {Key: "ssn", Value: "b"}}}}},
			bson.D{{Key: "createIndexes", Value: "people"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "ssn", Value: 1}}}, {Key: "name", Value: "ssn_1"}}}}},
			bson.D{{Key: "insert", Value: "orders"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: 1}, {Key: "amount", Value: 5}}}}})
	}
	state := func() string { // fx's and admin's collections, fx's counts and indexes, app's collections
		return fmt.Sprintf("fx %v people %d %v orders %d; admin %v; app %v", collections(t, cl, fx), count(t, cl, fx, "people"), indexes(t, cl, fx, "people"),
			count(t, cl, fx, "orders"), collections(t, cl, "admin"), collections(t, cl, app))
	}
	ddl := func(name string) string {
		return name + ": DDL (it creates, drops, renames, re-indexes or alters a collection): sent only with --replay-ddl"
	}
	for _, c := range []struct {
		name    string
		cmd     bson.D // sent on fx unless it names $db
		flags   func(*config.Config)
		refused string // exit 19, this in the message, nothing changed
		notSent string // the not-sent key it is counted under, nothing of fx changed
		after   string // what fx, admin and app hold after it (refused: before it)
	}{
		{name: "$out", cmd: bson.D{{Key: "aggregate", Value: "items"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$out", Value: bson.D{{Key: "db", Value: fx}, {Key: "coll", Value: "orders"}}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: app}},
			refused: fx + ".orders existed before and the trace's aggregate writes into it ($out)"},
		{name: "$merge", cmd: bson.D{{Key: "aggregate", Value: "items"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$merge", Value: bson.D{{Key: "into", Value: bson.D{{Key: "db", Value: fx}, {Key: "coll", Value: "people"}}}}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: app}},
			refused: fx + ".people existed before and the trace's aggregate writes into it ($merge)"},
		{name: "dropIndexes", cmd: bson.D{{Key: "dropIndexes", Value: "people"}, {Key: "index", Value: "ssn_1"}}, flags: allowExisting, notSent: ddl("dropIndexes")},
		{name: "createIndexes", cmd: bson.D{{Key: "createIndexes", Value: "people"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "status", Value: 1}}}, {Key: "name", Value: "status_1"}}}}},
			flags: allowExisting, notSent: ddl("createIndexes")},
		{name: "renameCollection", cmd: bson.D{{Key: "renameCollection", Value: fx + ".orders"}, {Key: "to", Value: fx + ".moved"}, {Key: "$db", Value: "admin"}}, notSent: ddl("renameCollection")},
		{name: "drop", cmd: bson.D{{Key: "drop", Value: "orders"}}, flags: allowExisting, notSent: ddl("drop")},
		{name: "dropDatabase", cmd: bson.D{{Key: "dropDatabase", Value: 1}}, flags: replayDDL,
			notSent: "dropDatabase: never sent (a database holds collections mongoload did not create, and its record of those it did)"},
		{name: "shutdown", cmd: bson.D{{Key: "shutdown", Value: 1}, {Key: "$db", Value: "admin"}}, flags: replayDDL,
			notSent: "shutdown: no data operation (server administration, or a command mongoload does not know): sent only with --replay-admin"},
		// Asked in words, DDL still never touches what mongoload did not create.
		{name: "drop with --replay-ddl", cmd: bson.D{{Key: "drop", Value: "orders"}}, flags: both(allowExisting, replayDDL),
			refused: fx + ".orders existed before and the trace's drop alters it: mongoload never drops"},
		{name: "dropIndexes with --replay-ddl", cmd: bson.D{{Key: "dropIndexes", Value: "people"}, {Key: "index", Value: "ssn_1"}}, flags: both(allowExisting, replayDDL),
			refused: fx + ".people existed before and the trace's dropIndexes alters it"},
		{name: "createIndexes with --replay-ddl", cmd: bson.D{{Key: "createIndexes", Value: "people"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "status", Value: 1}}}, {Key: "name", Value: "status_1"}}}}},
			flags: replayDDL, refused: "only with --create-indexes"},
		// Where the rule allows it, it is sent.
		{name: "createIndexes with --replay-ddl --create-indexes", cmd: bson.D{{Key: "createIndexes", Value: "people"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "status", Value: 1}}}, {Key: "name", Value: "status_1"}}}}},
			flags: both(replayDDL, createIndexes), after: fmt.Sprintf("fx [orders people] people 2 [_id_ ssn_1 status_1] orders 1; admin [%s]; app [items mongoload_meta]", adminColls(t, cl))},
		{name: "rename of its own with --replay-ddl", cmd: bson.D{{Key: "renameCollection", Value: app + ".items"}, {Key: "to", Value: app + ".moved"}, {Key: "$db", Value: "admin"}},
			flags: replayDDL, after: fmt.Sprintf("fx [orders people] people 2 [_id_ ssn_1] orders 1; admin [%s]; app [mongoload_meta moved]", adminColls(t, cl))},
	} {
		t.Run(c.name, func(t *testing.T) {
			seed()
			before := state()
			dir := t.TempDir()
			recordApp(t, app, fx, c.cmd).Write(t, dir, "1700000000000.bin")
			cfg := config.Default()
			cfg.Connection.URI = uri
			if c.flags != nil {
				c.flags(cfg)
			}
			var log strings.Builder
			res, err := replay.Run(ctx, cfg, replay.Options{Trace: dir, Loops: 1, Log: &log})
			switch {
			case c.refused != "":
				if !errors.Is(err, mongodb.ErrNotOurs) || !strings.Contains(err.Error(), c.refused) {
					t.Fatalf("replay: %v, want refused (exit 19) with %q\n%s", err, c.refused, log.String())
				}
				if got := state(); got != before {
					t.Errorf("refused, yet the server changed:\n before %s\n after  %s", before, got)
				}
				return
			case err != nil:
				t.Fatalf("replay: %v\n%s", err, log.String())
			}
			rp := res.Result.Result.Replay
			want := c.after
			if c.notSent != "" {
				want = strings.Replace(before, "app []", "app [items mongoload_meta]", 1)
				if rp.NotSent[c.notSent] != 1 || rp.Sent != 2 {
					t.Errorf("not sent %v (%d sent), want the recorded %s counted under %q, the 2 inserts sent", rp.NotSent, rp.Sent, c.name, c.notSent)
				}
				if !strings.Contains(log.String(), "not sent: ") || !strings.Contains(log.String(), c.notSent) {
					t.Errorf("the replay did not say before its first send that it does not send the %s:\n%s", c.name, log.String())
				}
			} else if rp.Sent != 3 || res.Result.Result.Totals.Errors != 0 {
				t.Errorf("%d sent, %d errors, want the recorded %s sent after the 2 inserts, without error:\n%s", rp.Sent, res.Result.Result.Totals.Errors, c.name, log.String())
			}
			if got := state(); got != want {
				t.Errorf("after the replay:\n got  %s\n want %s", got, want)
			}
		})
	}
}

func allowExisting(c *config.Config) { c.Run.AllowExisting = true }
func replayDDL(c *config.Config)     { c.Run.ReplayDDL = true }
func createIndexes(c *config.Config) { c.Run.CreateIndexes = true }
func both(a, b func(*config.Config)) func(*config.Config) {
	return func(c *config.Config) { a(c); b(c) }
}

// recordApp is a recording of an application inserting two documents into
// app.items, then sending cmd (on fx unless it names its $db).
func recordApp(t *testing.T, app, fx string, cmd bson.D) *recording.Rec {
	var r recording.Rec
	ok := recording.BuildMsg(t, 100, 1, 0, bson.D{{Key: "ok", Value: 1.0}})
	for i := range 2 {
		ins := bson.D{{Key: "insert", Value: "items"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: i}}}}, {Key: "$db", Value: app}}
		r.Packet(recording.EventRequest, 1, uint64(1000+i*1000), recording.BuildMsg(t, int32(i+1), 0, 0, ins))
		r.Packet(recording.EventResponse, 1, uint64(1500+i*1000), ok)
	}
	if !slices.ContainsFunc(cmd, func(e bson.E) bool { return e.Key == "$db" }) {
		cmd = append(cmd, bson.E{Key: "$db", Value: fx})
	}
	r.Packet(recording.EventRequest, 1, 5000, recording.BuildMsg(t, 9, 0, 0, cmd))
	r.Packet(recording.EventResponse, 1, 5500, ok)
	return &r
}

func dbOf(cmd bson.D, def string) string {
	for _, e := range cmd {
		if e.Key == "$db" {
			return e.Value.(string)
		}
	}
	return def
}

func collections(t *testing.T, cl *mongodb.Client, db string) []string {
	t.Helper()
	reply, err := cl.Command(context.Background(), db, bson.D{{Key: "listCollections", Value: 1}, {Key: "nameOnly", Value: true}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	vals, _ := reply.Lookup("cursor", "firstBatch").Array().Values()
	for _, v := range vals {
		names = append(names, v.Document().Lookup("name").StringValue())
	}
	slices.Sort(names)
	return names
}

// adminColls is what admin holds before the test (its own collections).
func adminColls(t *testing.T, cl *mongodb.Client) string {
	return strings.Join(collections(t, cl, "admin"), " ")
}

func count(t *testing.T, cl *mongodb.Client, db, coll string) int64 {
	t.Helper()
	reply, err := cl.Command(context.Background(), db, bson.D{{Key: "count", Value: coll}})
	if err != nil {
		t.Fatal(err)
	}
	return int64(mongodb.Number(reply.Lookup("n")))
}

func indexes(t *testing.T, cl *mongodb.Client, db, coll string) []string {
	t.Helper()
	reply, err := cl.Command(context.Background(), db, bson.D{{Key: "listIndexes", Value: coll}})
	if err != nil {
		return []string{"none: " + err.Error()}
	}
	var names []string
	vals, _ := reply.Lookup("cursor", "firstBatch").Array().Values()
	for _, v := range vals {
		names = append(names, v.Document().Lookup("name").StringValue())
	}
	slices.Sort(names)
	return names
}
