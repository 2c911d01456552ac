package client

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/testserver"
)

func TestMain(m *testing.M) { testserver.Main(m) }

func raw(t *testing.T, d bson.D) []byte {
	t.Helper()
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWireDoesTheDriversWork: the same operations through the wire client
// and through the driver leave the same documents and the same server
// counters (serverStatus opcounters: the server's own account of the
// commands, getMores included), and find nothing in the same places. The
// driver is the oracle.
func TestWireDoesTheDriversWork(t *testing.T) {
	uri := testserver.URI(t)
	ctx := context.Background()
	admin, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Disconnect(ctx)
	db := fmt.Sprintf("floorclient_%d_%d", os.Getpid(), time.Now().UnixNano())
	defer admin.Database(db).Drop(ctx)
	counters := func() map[string]int64 {
		var st struct{ Opcounters map[string]int64 }
		if err := admin.Database("admin").RunCommand(ctx, bson.D{{Key: "serverStatus", Value: 1}}).Decode(&st); err != nil {
			t.Fatal(err)
		}
		return st.Opcounters
	}
	var batch [][]byte
	for k := 10; k < 160; k++ { // more than a first batch (101 documents): the find needs a getMore
		batch = append(batch, raw(t, bson.D{{Key: "_id", Value: k}, {Key: "k", Value: k}, {Key: "g", Value: k % 3}}))
	}
	results := map[string][]string{}
	deltas := map[string]map[string]int64{}
	docs := map[string][]bson.Raw{}
	for _, kind := range []string{"driver", "wire"} {
		clients, err := Open(kind, uri, db, kind)
		if err != nil {
			t.Fatal(err)
		}
		c, err := clients.New()
		if err != nil {
			t.Fatal(err)
		}
		// A first command opens the connection (the driver's handshake is
		// a command of its own) before the counting starts.
		if err := c.FindOne(raw(t, bson.D{})); err != ErrNoDocuments {
			t.Fatal(err)
		}
		before := counters()
		steps := []error{
			c.Insert(raw(t, bson.D{{Key: "_id", Value: 1}, {Key: "k", Value: 1}})),
			c.Insert(batch...),
			c.FindOne(raw(t, bson.D{{Key: "k", Value: 1}})),
			c.FindOne(raw(t, bson.D{{Key: "k", Value: -1}})),
			c.Find(raw(t, bson.D{}), NewFind(raw(t, bson.D{{Key: "k", Value: 1}}), nil, 0)),
			c.Find(raw(t, bson.D{{Key: "g", Value: 1}}), NewFind(nil, raw(t, bson.D{{Key: "k", Value: -1}}), 5)),
			c.UpdateOne(raw(t, bson.D{{Key: "k", Value: 1}}), raw(t, bson.D{{Key: "$set", Value: bson.D{{Key: "v", Value: "x"}}}})),
			c.UpdateOne(raw(t, bson.D{{Key: "k", Value: -1}}), raw(t, bson.D{{Key: "$set", Value: bson.D{{Key: "v", Value: "x"}}}})),
			c.DeleteOne(raw(t, bson.D{{Key: "g", Value: 2}})),
			c.Aggregate(raw(t, bson.D{
				{Key: "0", Value: bson.D{{Key: "$match", Value: bson.D{{Key: "g", Value: 0}}}}},
				{Key: "1", Value: bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$g"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}}}}},
			})),
		}
		after := counters()
		for _, err := range steps {
			results[kind] = append(results[kind], fmt.Sprint(err))
		}
		deltas[kind] = map[string]int64{}
		for k, v := range after {
			deltas[kind][k] = v - before[k]
		}
		deltas[kind]["command"]-- // the serverStatus that read the counters
		cur, err := admin.Database(db).Collection(kind).Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
		if err != nil {
			t.Fatal(err)
		}
		for cur.Next(ctx) {
			docs[kind] = append(docs[kind], append(bson.Raw(nil), cur.Current...))
		}
		_ = c.Close()
		clients.Close()
	}
	want := []string{"<nil>", "<nil>", "<nil>", ErrNoDocuments.Error(), "<nil>", "<nil>", "<nil>", ErrNoDocuments.Error(), "<nil>", "<nil>"}
	for kind, got := range results {
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: results %v, want %v", kind, got, want)
		}
	}
	if fmt.Sprint(deltas["wire"]) != fmt.Sprint(deltas["driver"]) {
		t.Errorf("server counters: wire %v, driver %v", deltas["wire"], deltas["driver"])
	}
	if deltas["wire"]["getmore"] < 1 {
		t.Errorf("no getMore counted: %v", deltas["wire"])
	}
	if len(docs["wire"]) != 150 || fmt.Sprint(docs["wire"]) != fmt.Sprint(docs["driver"]) {
		t.Errorf("documents after: wire %d, driver %d, or they differ", len(docs["wire"]), len(docs["driver"]))
	}
}
