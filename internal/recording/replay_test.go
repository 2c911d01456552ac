package recording_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/recording"
	"github.com/mongoload/mongoload/internal/replay"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestRecordingReplaysIntoTheServer: a recording directory built from
// MongoDB's layout (an application's handshake, authentication, an insert
// of three documents as a document sequence, an update, a find, the
// recorder's own stop) is replayed into the real server: the server holds
// the three documents as the application wrote them, the update applied;
// the handshake, authentication and the stop are not sent.
func TestRecordingReplaysIntoTheServer(t *testing.T) {
	ctx := context.Background()
	uri := testserver.URI(t)
	db := fmt.Sprintf("recrp_%d", os.Getpid())
	cl, err := mongodb.Connect(ctx, config.Connection{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	t.Cleanup(func() { _, _ = cl.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}}) })

	var r recording.Rec
	msg := func(id int32, flags uint32, body bson.D, docs ...bson.D) []byte {
		if len(docs) == 0 {
			return recording.BuildMsg(t, id, 0, flags, body)
		}
		return recording.BuildMsg(t, id, 0, flags, body, seqOf(docs))
	}
	ok := recording.BuildMsg(t, 100, 1, 0, bson.D{{Key: "ok", Value: 1.0}})
	on := func(db string, cmd ...bson.E) bson.D { return append(bson.D(cmd), bson.E{Key: "$db", Value: db}) }
	r.Packet(recording.EventStart, 4, 0, nil)
	r.Packet(recording.EventRequest, 4, 100, msg(1, 0, on("admin", bson.E{Key: "hello", Value: 1})))
	r.Packet(recording.EventResponse, 4, 150, ok)
	r.Packet(recording.EventRequest, 4, 200, msg(2, 0, on("admin", bson.E{Key: "saslStart", Value: 1}, bson.E{Key: "mechanism", Value: "SCRAM-SHA-256"})))
	r.Packet(recording.EventResponse, 4, 250, ok)
	r.Packet(recording.EventRequest, 4, 1000, msg(3, recording.FlagChecksum, on(db, bson.E{Key: "insert", Value: "people"}, bson.E{Key: "ordered", Value: true}),
		bson.D{{Key: "_id", Value: 1}, {Key: "name", Value: "ada"}}, bson.D{{Key: "_id", Value: 2}, {Key: "name", Value: "bob"}}, bson.D{{Key: "_id", Value: 3}, {Key: "name", Value: "cy"}}))
	r.Packet(recording.EventResponse, 4, 1800, ok)
	r.Packet(recording.EventRequest, 4, 3000, msg(4, 0, on(db, bson.E{Key: "update", Value: "people"},
		bson.E{Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: 2}}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "name", Value: "BOB"}}}}}}}})))
	r.Packet(recording.EventResponse, 4, 3300, ok)
	r.Packet(recording.EventRequest, 4, 5000, msg(5, 0, on(db, bson.E{Key: "find", Value: "people"}, bson.E{Key: "filter", Value: bson.D{{Key: "_id", Value: 3}}})))
	r.Packet(recording.EventResponse, 4, 5200, ok)
	r.Packet(recording.EventRequest, 9, 6000, msg(6, 0, on("admin", bson.E{Key: "stopTrafficRecording", Value: 1})))
	dir := t.TempDir()
	r.Write(t, dir, "1700000000000.bin")

	cfg := config.Default()
	cfg.Connection.URI = uri
	cfg.Run.AllowExisting = true
	var log bytes.Buffer
	res, err := replay.Run(ctx, cfg, replay.Options{Trace: dir, Speed: 0, Loops: 1, Log: &log})
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, log.String())
	}
	if err := res.Err(); err != nil {
		t.Fatalf("replay: %v\n%s", err, log.String())
	}
	reply, err := cl.Command(ctx, db, bson.D{{Key: "find", Value: "people"}, {Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	docs, _ := reply.Lookup("cursor", "firstBatch").Array().Values()
	for _, d := range docs {
		got = append(got, fmt.Sprint(d.Document().Lookup("_id").AsInt64(), ":", d.Document().Lookup("name").StringValue()))
	}
	if strings.Join(got, " ") != "1:ada 2:BOB 3:cy" {
		t.Errorf("the server holds %v, want the recording's three documents, the second updated\n%s", got, log.String())
	}
	rp := res.Result.Result.Replay
	if !strings.Contains(log.String(), "names no deployment") {
		t.Errorf("the replay does not say a recording names no deployment:\n%s", log.String())
	}
	if rp == nil || rp.Sent != 3 || rp.Entries != 6 {
		t.Errorf("replay section %+v: want 3 of 6 requests sent (hello, saslStart and the recorder's stop not)", rp)
	}
}

func seqOf(docs []bson.D) recording.Seq { return recording.Seq{ID: "documents", Docs: docs} }
