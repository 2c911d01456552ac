package recording_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/ab"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/recording"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestABOnARecording: ab reads a MongoDB traffic recording as it reads a
// trace. Two servers hold the same people; a recording of finds (one
// connection), an insert and the driver's hello is compared on them: the
// finds are sent and their results compared (none differs), the insert is
// not sent and counted by kind, the handshake not either, the file says
// what a recording lacks, and neither server holds the inserted document.
func TestABOnARecording(t *testing.T) {
	ctx := context.Background()
	a := testserver.URI(t)
	b, _ := testserver.Own(t)
	db := fmt.Sprintf("recab_%d", os.Getpid())
	var clients []*mongodb.Client
	for _, uri := range []string{a, b} {
		cl, err := mongodb.Connect(ctx, config.Connection{URI: uri})
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		var docs bson.A
		for i := 0; i < 50; i++ {
			docs = append(docs, bson.D{{Key: "_id", Value: i}, {Key: "org", Value: fmt.Sprintf("o%d", i%5)}})
		}
		if _, err := cl.Command(ctx, db, bson.D{{Key: "insert", Value: "people"}, {Key: "documents", Value: docs}}); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, cl)
	}
	t.Cleanup(func() { _, _ = clients[0].Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}}) })

	var r recording.Rec
	ok := recording.BuildMsg(t, 100, 1, 0, bson.D{{Key: "ok", Value: 1.0}})
	on := func(cmd ...bson.E) bson.D { return append(bson.D(cmd), bson.E{Key: "$db", Value: db}) }
	r.Packet(recording.EventStart, 4, 0, nil)
	r.Packet(recording.EventRequest, 4, 100, recording.BuildMsg(t, 1, 0, 0, bson.D{{Key: "hello", Value: 1}, {Key: "$db", Value: "admin"}}))
	r.Packet(recording.EventResponse, 4, 150, ok)
	at := uint64(1000)
	for i := 0; i < 40; i++ {
		r.Packet(recording.EventRequest, 4, at, recording.BuildMsg(t, int32(10+i), 0, 0, on(bson.E{Key: "find", Value: "people"}, bson.E{Key: "filter", Value: bson.D{{Key: "org", Value: fmt.Sprintf("o%d", i%5)}}})))
		r.Packet(recording.EventResponse, 4, at+300, ok)
		at += 2000
	}
	r.Packet(recording.EventRequest, 4, at, recording.BuildMsg(t, 99, 0, 0, on(bson.E{Key: "insert", Value: "people"}),
		recording.Seq{ID: "documents", Docs: []bson.D{{{Key: "_id", Value: 1000}}}}))
	r.Packet(recording.EventResponse, 4, at+300, ok)
	dir := t.TempDir()
	r.Write(t, dir, "1700000000000.bin")

	cfg := config.Default()
	cfg.Connection.URI = a
	cfg.Run.AllowExisting = true
	var log bytes.Buffer
	f, err := ab.RunTraffic(ctx, ab.Options{Config: cfg, CandidateURI: b, Rounds: 2, Verify: 20, Judge: ab.DefaultABOptions(), Log: &log},
		ab.Traffic{Path: dir, Speed: 0, Writes: ab.WritesNotSent})
	if err != nil {
		t.Fatalf("ab: %v\n%s", err, log.String())
	}
	if f.Traffic == nil || f.Traffic.Format != "MongoDB traffic recording" || f.Traffic.Sent != 40 {
		t.Fatalf("traffic %+v: want a MongoDB traffic recording with its 40 finds sent\n%s", f.Traffic, log.String())
	}
	var notSent []string
	for why, n := range f.Traffic.NotSent {
		notSent = append(notSent, fmt.Sprint(n, " ", why))
	}
	if s := strings.Join(notSent, "; "); !strings.Contains(s, "1 insert: writes are not sent") || !strings.Contains(s, "commands that are not an operation of the application") {
		t.Errorf("not sent: %s; want the insert, by kind, and the hello", s)
	}
	if !strings.Contains(strings.Join(f.Notes, " "), "names no deployment") {
		t.Errorf("the notes do not say what a recording lacks: %q", f.Notes)
	}
	if len(f.Operations) != 1 || f.Operations[0].Verified != 20 || f.Operations[0].ResultDiffs != 0 || len(f.Operations[0].PerRound) != 4 {
		t.Errorf("operations %+v: want the find's shape alone, 20 verified, none differing, 4 rounds' tails", f.Operations)
	}
	for i, cl := range clients {
		reply, err := cl.Command(ctx, db, bson.D{{Key: "count", Value: "people"}})
		if err != nil {
			t.Fatal(err)
		}
		if n := reply.Lookup("n").AsInt64(); n != 50 {
			t.Errorf("side %d holds %d people, want the 50 it had: the recording's insert was sent", i, n)
		}
	}
}
