package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestCaptureKeepsSecretsInsideStrings: the private values that used to
// leave without --keep-values, each a class: a birth date (one for every
// person: a constant) written as the day where the docs promise its
// year; a name and a card number inside one $addFields string, a name
// and an API key inside a sampled memo (a value that identifies among
// the words of a string); a constant street, a CVV and a coupon code
// (constants that identify by their look or their field's name); and
// the places a literal could still go out as it is: a stage's name
// (onNull holding a person's name), a partial index's filter. None of
// them is in anything capture writes, from the profiler, an export of
// it or a log made of it, in the file or on the console; with --keep-values the
// file holds them (the test can fail).
func TestCaptureKeepsSecretsInsideStrings(t *testing.T) {
	uri := testserver.URI(t)
	ctx := context.Background()
	cl := connectTest(t, ctx, uri)
	d := openDB(t, uri)
	db := profiledDatabase(t, cl, "capsecret")
	const (
		name, card, token = "Zelda Quixote", "4539148803436467", "sk_live_51H8qXyZsecretTOKENabcdef123456"
		street, coupon    = "742 Evergreen Terrace", "COUPON-ZQ-7781"
		dob, cvv, other   = "1984-07-13", "937", "Yorick Pemberton"
	)
	secrets := []string{name, card, token, "sk_live_51H8", street, "Evergreen Terrace", coupon, dob, other, "Quixote", "Pemberton"}
	var docs bson.A
	for i := range 60 {
		docs = append(docs, bson.D{{Key: "_id", Value: i}, {Key: "status", Value: []string{"a", "b", "c"}[i%3]},
			{Key: "address", Value: bson.D{{Key: "street", Value: street}}}, {Key: "cvv", Value: cvv},
			{Key: "dob", Value: bson.DateTime(455932800000)}, // 1984-07-13, midnight
			{Key: "memo", Value: other + " " + token}})
	}
	d.cmd(db, bson.D{{Key: "insert", Value: "people"}, {Key: "documents", Value: docs}})
	d.cmd(db, bson.D{{Key: "insert", Value: "orders"}, {Key: "documents", Value: bson.A{bson.D{{Key: "coupon", Value: coupon}}}}})
	d.cmd(db, bson.D{{Key: "createIndexes", Value: "people"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "status", Value: 1}}},
		{Key: "name", Value: "vip"}, {Key: "partialFilterExpression", Value: bson.D{{Key: "memo", Value: other + " " + token}}}}}}})
	if err := cl.SetProfiler(ctx, db, mongodb.ProfilerState{Level: 2, SlowMS: 100, SampleRate: 1}); err != nil {
		t.Fatal(err)
	}
	agg := func(stages ...bson.D) {
		p := bson.A{}
		for _, s := range stages {
			p = append(p, s)
		}
		d.cmd(db, bson.D{{Key: "aggregate", Value: "people"}, {Key: "pipeline", Value: p}, {Key: "cursor", Value: bson.D{}}})
	}
	for range 12 {
		d.cmd(db, bson.D{{Key: "find", Value: "people"}, {Key: "filter", Value: bson.D{{Key: "dob", Value: bson.DateTime(455932800000)}}}})
		d.cmd(db, bson.D{{Key: "find", Value: "people"}, {Key: "filter", Value: bson.D{{Key: "address.street", Value: street}}}})
		agg(bson.D{{Key: "$match", Value: bson.D{{Key: "status", Value: "a"}}}}, bson.D{{Key: "$addFields", Value: bson.D{{Key: "note", Value: name + " owes " + card}}}})
		agg(bson.D{{Key: "$lookup", Value: bson.D{{Key: "from", Value: "orders"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$match", Value: bson.D{{Key: "coupon", Value: coupon}}}}}}, {Key: "as", Value: "o"}}}})
		agg(bson.D{{Key: "$project", Value: bson.D{{Key: "d", Value: bson.D{{Key: "$dateToString", Value: bson.D{{Key: "date", Value: "$dob"}, {Key: "onNull", Value: other}}}}}}}})
	}
	if err := cl.SetProfiler(ctx, db, mongodb.ProfilerState{Level: 0, SlowMS: 100, SampleRate: 1}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	export, log := filepath.Join(dir, "profile.json"), filepath.Join(dir, "mongod.log")
	writeProfile(t, d.find(db, "system.profile", bson.D{{Key: "ts", Value: 1}}), export, log)

	outputs := map[string][]string{
		"profiler": {"--uri", uri, "--database", db},
		"export":   {"--export", export},
		"log":      {"--log", log},
	}
	for source, args := range outputs {
		out := filepath.Join(dir, source+".yaml")
		code, stdout, stderr := runCLI(t, ctx, nil, append([]string{"capture", "--out", out}, args...)...)
		text, _ := os.ReadFile(out)
		if code != 0 || !strings.Contains(string(text), "operations:") {
			t.Fatalf("%s: exit %d: %s%s", source, code, stdout, stderr)
		}
		all := string(text) + stdout + stderr
		for _, s := range secrets {
			if strings.Contains(all, s) {
				t.Errorf("%s: %q left the source", source, s)
			}
		}
		if strings.Contains(string(text), "cvv: "+cvv) || strings.Contains(string(text), `"937"`) {
			t.Errorf("%s: the CVV left the source", source)
		}
		if source == "profiler" && (!strings.Contains(string(text), `dob: {$gen: date, from: "1984-01-01`) || strings.Contains(string(text), "name: vip")) {
			t.Errorf("profiler: want the birth date as its year and the vip index (its filter holds a name and a key) left out:\n%s", text)
		}
		if t.Failed() {
			t.Fatalf("%s: the file:\n%s", source, text)
		}
	}
	kept := filepath.Join(dir, "kept.yaml")
	if code, o, e := runCLI(t, ctx, nil, "capture", "--uri", uri, "--database", db, "--keep-values", "--out", kept); code != 0 {
		t.Fatalf("--keep-values: exit %d: %s%s", code, o, e)
	}
	ktext, _ := os.ReadFile(kept)
	for _, s := range []string{name + " owes " + card, coupon, street} {
		if !strings.Contains(string(ktext), s) {
			t.Errorf("--keep-values did not write %q", s)
		}
	}
}

// writeProfile writes profiler entries as an export (relaxed extended
// JSON, one a line) and as mongod's "Slow query" log lines.
func writeProfile(t *testing.T, entries []bson.Raw, export, log string) {
	t.Helper()
	var ex, lg strings.Builder
	for _, e := range entries {
		b, err := bson.MarshalExtJSON(e, false, false)
		if err != nil {
			t.Fatal(err)
		}
		ex.Write(append(b, '\n'))
		cmd, ok := e.Lookup("command").DocumentOK()
		ts, tok := e.Lookup("ts").TimeOK()
		if !ok || !tok {
			continue
		}
		typ := "command"
		if op, _ := e.Lookup("op").StringValueOK(); op == "update" || op == "remove" {
			typ = op
		}
		ns, _ := e.Lookup("ns").StringValueOK()
		attr := bson.D{{Key: "type", Value: typ}, {Key: "ns", Value: ns}, {Key: "command", Value: cmd}, {Key: "planSummary", Value: "COLLSCAN"},
			{Key: "durationMillis", Value: e.Lookup("millis").AsInt64()}}
		line := bson.D{{Key: "t", Value: bson.D{{Key: "$date", Value: ts.UTC().Format("2006-01-02T15:04:05.000Z07:00")}}}, {Key: "s", Value: "I"},
			{Key: "c", Value: "COMMAND"}, {Key: "id", Value: 51803}, {Key: "ctx", Value: "conn1"}, {Key: "msg", Value: "Slow query"}, {Key: "attr", Value: attr}}
		b, err = bson.MarshalExtJSON(line, false, false)
		if err != nil {
			t.Fatal(err)
		}
		lg.Write(append(b, '\n'))
	}
	if err := os.WriteFile(export, []byte(ex.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, []byte(lg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// profiledDatabase names a database of this test process for a test that
// turns its profiler on: when the test ends, the profiler is off again and
// the database dropped.
func profiledDatabase(t *testing.T, cl *mongodb.Client, prefix string) string {
	db := fmt.Sprintf("%s_%d", prefix, os.Getpid())
	t.Cleanup(func() {
		_ = cl.SetProfiler(context.Background(), db, mongodb.ProfilerState{Level: 0, SlowMS: 100, SampleRate: 1})
		_, _ = cl.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}})
	})
	return db
}
