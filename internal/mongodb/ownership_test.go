package mongodb

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongoload/mongoload/internal/dbcommand"
	"github.com/mongoload/mongoload/internal/workload"
)

// TestOwnershipRule: the one rule, case by case, as the docs' table states it
// (docs/workload.md#collections-mongoload-did-not-create).
func TestOwnershipRule(t *testing.T) {
	reads := &workload.Collection{Database: "d", Name: "c"}
	writes := &workload.Collection{Database: "d", Name: "c", Writes: true}
	tests := []struct {
		name   string
		col    *workload.Collection
		ours   bool
		o      SetupOptions
		fill   string
		refuse string // "" when allowed
		want   ownership
	}{
		{"ours, setup", writes, true, SetupOptions{Create: true}, "", "", ownership{ours: true, writable: true, index: true, shard: true}},
		{"ours, setup disabled: no index, no sharding", writes, true, SetupOptions{}, "", "", ownership{ours: true, writable: true}},
		{"ours, indexes later", writes, true, SetupOptions{Create: true, SkipIndexes: true}, "", "", ownership{ours: true, writable: true, shard: true}},
		{"foreign, read only", reads, false, SetupOptions{Create: true}, "", "", ownership{}},
		{"foreign, writes", writes, false, SetupOptions{Create: true}, "", "this workload writes to it", ownership{}},
		{"foreign, seeding", reads, false, SetupOptions{Create: true}, "seeding it to 50 documents would insert into it", "seeding it to 50 documents", ownership{}},
		{"foreign, writes and loading", writes, false, SetupOptions{Create: true}, "loading would insert into it", "writes to it and loading", ownership{}},
		{"foreign, --allow-existing: writes, never indexes or shards", writes, false, SetupOptions{Create: true, AllowExisting: true}, "loading would insert into it", "", ownership{writable: true}},
		{"foreign, --create-indexes: indexes, asked in words", reads, false, SetupOptions{Create: true, CreateIndexes: true}, "", "", ownership{index: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decideOwnership(tt.col, tt.ours, !tt.ours, tt.o, tt.fill) // ours: created now
			switch {
			case tt.refuse == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.refuse != "" && (!errors.Is(err, ErrNotOurs) || !strings.Contains(err.Error(), tt.refuse) || !strings.Contains(err.Error(), "--allow-existing")):
				t.Fatalf("error %v, want ErrNotOurs saying %q and the fix", err, tt.refuse)
			case tt.refuse == "" && got != tt.want:
				t.Fatalf("%+v, want %+v", got, tt.want)
			}
		})
	}
	// A collection of mongoload's from an earlier run keeps its indexes as
	// they are (one dropped there was dropped by someone), unless asked.
	for _, o := range []SetupOptions{{Create: true}, {Create: true, CreateIndexes: true}, {Create: true, OwnIndexes: true}} {
		got, err := decideOwnership(writes, true, true, o, "")
		if err != nil || got.index != (o.CreateIndexes || o.OwnIndexes) || !got.writable {
			t.Errorf("ours, existed, %+v: %+v %v", o, got, err)
		}
	}
	// A resumed or partitioned load builds its own collection's indexes,
	// never a foreign one's.
	if got, _ := decideOwnership(writes, false, true, SetupOptions{Create: true, AllowExisting: true, OwnIndexes: true}, ""); got.index {
		t.Errorf("foreign, OwnIndexes: %+v", got)
	}
}

// TestFillIsAWrite: seeding or loading into a foreign collection is refused
// at setup, before any write, like the operations' writes: the collection
// keeps its one document and no mongoload_meta appears beside it. Before,
// only the operations' writes were checked.
func TestFillIsAWrite(t *testing.T) {
	cl := connectTest(t)
	ctx := context.Background()
	p, db := plan(t, "")
	col := p.Collections[0]
	col.Writes = false // a read-only workload
	if _, err := cl.c.Database(db).Collection("c").InsertOne(ctx, bson.D{{Key: "k", Value: 0}}); err != nil {
		t.Fatal(err)
	}
	fill := func(_ *workload.Collection, holds int64) string {
		if holds < 50 {
			return "seeding it to 50 documents would insert into it"
		}
		return ""
	}
	_, err := cl.Prepare(ctx, p, SetupOptions{Create: true, Fill: fill})
	if !errors.Is(err, ErrNotOurs) || !strings.Contains(err.Error(), "seeding it to 50 documents") {
		t.Fatalf("seeding a foreign collection: %v", err)
	}
	names, _ := cl.c.Database(db).ListCollectionNames(ctx, bson.D{})
	if slices.Contains(names, MetaCollection) {
		t.Errorf("%s created beside a foreign collection: %v", MetaCollection, names)
	}
	// Reading it is allowed, and leaves no mark either, even after SaveKeys.
	if _, err := cl.Prepare(ctx, p, SetupOptions{Create: true}); err != nil {
		t.Fatal(err)
	}
	if err := cl.SaveKeys(ctx, p); err != nil {
		t.Fatal(err)
	}
	names, _ = cl.c.Database(db).ListCollectionNames(ctx, bson.D{})
	if slices.Contains(names, MetaCollection) {
		t.Errorf("%s created beside a foreign collection by a read-only run: %v", MetaCollection, names)
	}
	if n, _ := cl.c.Database(db).Collection("c").CountDocuments(ctx, bson.D{}); n != 1 {
		t.Errorf("the collection holds %d documents, want its 1", n)
	}
}

// TestShardingOnlyOwnCollections: on a sharded cluster, setup shards only
// a collection mongoload created, with setup enabled. This server is not
// sharded, so the test tells prepareCollection it is: any shardCollection
// it sends fails here, which is how the old code (sharding foreign
// collections and with setup disabled) failed this test.
func TestShardingOnlyOwnCollections(t *testing.T) {
	cl := connectTest(t)
	ctx := context.Background()
	p, db := plan(t, "    shardKey: {k: 1}")
	col := p.Collections[0]
	if _, err := cl.c.Database(db).Collection("c").InsertOne(ctx, bson.D{{Key: "k", Value: 0}}); err != nil {
		t.Fatal(err)
	}
	// Foreign, even with --allow-existing: never sharded.
	notices, err := prepareOne(ctx, cl, col, SetupOptions{Create: true, AllowExisting: true}, true)
	if err != nil {
		t.Fatalf("a foreign collection: %v", err)
	}
	if !strings.Contains(strings.Join(notices, "\n"), "not sharded on {\"k\": {\"$numberInt\":\"1\"}}: mongoload did not create it") {
		t.Errorf("no notice that it was not sharded: %q", notices)
	}
	// Ours, but setup disabled: not sharded either.
	if _, err := prepareOne(ctx, cl, col, SetupOptions{Create: true, Drop: true}, false); err != nil {
		t.Fatal(err)
	}
	notices, err = prepareOne(ctx, cl, col, SetupOptions{}, true)
	if err != nil {
		t.Fatalf("setup disabled: %v", err)
	}
	if !strings.Contains(strings.Join(notices, "\n"), "setup is disabled") {
		t.Errorf("no notice that setup is disabled: %q", notices)
	}
	// Ours with setup: it is sharded, which this server refuses; the error says so.
	if _, err := prepareOne(ctx, cl, col, SetupOptions{Create: true}, true); err == nil || !strings.Contains(err.Error(), "sharding") {
		t.Errorf("sharding our own collection was not attempted: %v", err)
	}
}

// TestShardKeyIndexOnlyWhenSharded: the default workload's hashed index
// serves only its shard key; on a server that is not a sharded cluster it is
// not even asked for (the old code asked, and this server refused it with a
// notice), while its other indexes are built.
func TestShardKeyIndexOnlyWhenSharded(t *testing.T) {
	cl := connectTest(t)
	ctx := context.Background()
	p, db := plan(t, "      - keys: {k: hashed}\n    shardKey: {k: hashed}")
	notices, err := cl.Prepare(ctx, p, SetupOptions{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(notices, "\n")
	if strings.Contains(joined, "refused") || !strings.Contains(joined, "serves only the shard key") {
		t.Errorf("notices %q: want the shard key's index skipped, not refused", joined)
	}
	specs, err := cl.c.Database(db).Collection("c").Indexes().ListSpecifications(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	if !slices.Contains(names, "k_1") || slices.Contains(names, "k_hashed") {
		t.Errorf("indexes %v: want k_1 and no k_hashed", names)
	}
	// The same rule after a load (--indexes after).
	notices, err = cl.CreateIndexes(ctx, p.Collections[0])
	if err != nil || strings.Contains(strings.Join(notices, "\n"), "refused") {
		t.Errorf("CreateIndexes: %v %q", err, notices)
	}
}

// TestServerErrorsMatchedByCode: "already" in a message is not a code.
func TestServerErrorsMatchedByCode(t *testing.T) {
	already := mongo.CommandError{Code: 23, Name: "AlreadyInitialized", Message: "sharding already enabled for database d"}
	wording := mongo.CommandError{Code: 20, Name: "IllegalOperation", Message: "collection is already sharded with a different key"}
	if !hasCode(already, codeAlreadyInitialized) {
		t.Error("AlreadyInitialized not recognised by its code")
	}
	if hasCode(wording, codeAlreadyInitialized) {
		t.Error("an error matched by the word \"already\"")
	}
	if hasCode(errors.New("already"), codeAlreadyInitialized) {
		t.Error("a plain error matched")
	}
}

// prepareOne prepares one collection as Prepare does: inspected, then applied.
func prepareOne(ctx context.Context, cl *Client, col *workload.Collection, o SetupOptions, sharded bool) ([]string, error) {
	st, err := cl.inspect(ctx, col, o)
	if err != nil {
		return nil, err
	}
	return cl.apply(ctx, st, o, sharded)
}

// TestOwnershipRuleForCommands: what a replayed command alters (its DDL,
// with --replay-ddl) touches only a collection mongoload created, whatever
// --allow-existing says, but an index build with --create-indexes; nothing
// is created, written or altered in the server's own namespaces, read only.
func TestOwnershipRuleForCommands(t *testing.T) {
	drop := &workload.Collection{Database: "crm", Name: "people", AlteredBy: "the trace's dropIndexes alters it"}
	build := &workload.Collection{Database: "crm", Name: "people", AlteredBy: "the trace's createIndexes alters it", IndexBuildsOnly: true}
	all := SetupOptions{Create: true, AllowExisting: true, CreateIndexes: true}
	for _, c := range []struct {
		name         string
		col          *workload.Collection
		ours, exists bool
		o            SetupOptions
		refuse       string
	}{
		{"DDL on its own", drop, true, true, SetupOptions{Create: true}, ""},
		{"DDL on a missing one", drop, true, false, SetupOptions{Create: true}, ""},
		{"DDL on a foreign one, every flag", drop, false, true, all, "never drops, renames or alters a collection it did not create"},
		{"index build on a foreign one", build, false, true, SetupOptions{Create: true, AllowExisting: true}, "only with --create-indexes"},
		{"index build on a foreign one, --create-indexes", build, false, true, SetupOptions{Create: true, CreateIndexes: true}, ""},
		{"read of admin", &workload.Collection{Database: "admin", Name: "system.version"}, false, true, all, ""},
		{"admin, missing", &workload.Collection{Database: "admin", Name: "x"}, true, false, all, "the server's own database admin (admin.x), and setup would create it"},
		{"write into local", &workload.Collection{Database: "local", Name: "oplog.rs", Writes: true}, false, true, all, "this workload writes to it: mongoload creates nothing there"},
		{"$cmd", &workload.Collection{Database: "crm", Name: "$cmd"}, true, false, all, "a command's pseudo-collection (crm.$cmd)"},
		{"system collection altered", &workload.Collection{Database: "crm", Name: "system.views", AlteredBy: "the trace's drop alters it"}, false, true, all, "a system collection"},
	} {
		got, err := decideOwnership(c.col, c.ours, c.exists, c.o, "")
		switch {
		case c.refuse == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.refuse != "" && (!errors.Is(err, ErrNotOurs) || !strings.Contains(err.Error(), c.refuse)):
			t.Errorf("%s: %v, want ErrNotOurs saying %q", c.name, err, c.refuse)
		case c.refuse == "" && dbcommand.Reserved(c.col.Namespace()) != "" && (got.writable || got.index || got.shard):
			t.Errorf("%s: %+v: a namespace of the server's own is read only", c.name, got)
		}
	}
}
