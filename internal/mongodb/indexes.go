package mongodb

import (
	"bytes"
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/workload"
)

// indexModel is the driver's description of an index of the workload.
func indexModel(ix workload.Index) mongo.IndexModel {
	o := options.Index().SetName(ix.Name)
	if ix.Unique {
		o.SetUnique(true)
	}
	if ix.Sparse {
		o.SetSparse(true)
	}
	if ix.TTL > 0 {
		o.SetExpireAfterSeconds(int32(ix.TTL.Seconds()))
	}
	if ix.Partial != nil {
		o.SetPartialFilterExpression(bson.Raw(ix.Partial))
	}
	return mongo.IndexModel{Keys: bson.Raw(ix.Keys), Options: o}
}

// createIndexes creates each index; a refused hashed index is a notice,
// because some servers do without it. An index that only serves the shard
// key (its keys are the shard key's) is built only on a sharded cluster:
// elsewhere it would cost every write an index that nothing reads.
func (cl *Client) createIndexes(ctx context.Context, col *workload.Collection, sharded bool) ([]string, error) {
	var notices []string
	iv := cl.c.Database(col.Database).Collection(col.Name).Indexes()
	for _, ix := range col.Indexes {
		if !sharded && servesOnlyShardKey(col, ix) {
			notices = append(notices, fmt.Sprintf("index %s on %s not built: it serves only the shard key, and the server is not a sharded cluster", ix.Name, col.Namespace()))
			continue
		}
		_, err := iv.CreateOne(ctx, indexModel(ix))
		switch {
		case err == nil:
		case ix.Hashed:
			notices = append(notices, fmt.Sprintf("index %s on %s: the server refused a hashed index (%s); the run goes on without it", ix.Name, col.Namespace(), firstLine(err)))
		default:
			return notices, fmt.Errorf("create index %s on %s: %s", ix.Name, col.Namespace(), firstLine(err))
		}
	}
	return notices, nil
}

// servesOnlyShardKey reports whether ix is the shard key's own hashed
// index: the same keys as the collection's shard key. A hashed index
// serves no range query or sort, so its one purpose is the shard key.
func servesOnlyShardKey(col *workload.Collection, ix workload.Index) bool {
	return ix.Hashed && col.ShardKey != nil && bytes.Equal(ix.Keys, col.ShardKey)
}

// shardCollection shards a collection mongoload created, on a sharded
// cluster; elsewhere the shard key is only noted. It never shards a
// collection the ownership rule does not let it (ownership.go).
func (cl *Client) shardCollection(ctx context.Context, col *workload.Collection, sharded bool, own ownership) (string, error) {
	if col.ShardKey == nil {
		return "", nil
	}
	key := bson.Raw(col.ShardKey).String()
	switch {
	case !sharded:
		return fmt.Sprintf("shard key of %s ignored: the server is not a sharded cluster (mongos)", col.Namespace()), nil
	case !own.shard && !own.ours:
		return fmt.Sprintf("%s not sharded on %s: mongoload did not create it, and never shards a collection it did not create", col.Namespace(), key), nil
	case !own.shard:
		return fmt.Sprintf("%s not sharded on %s: setup is disabled", col.Namespace(), key), nil
	}
	admin := cl.c.Database("admin")
	// Servers before 6.0 refuse a second enableSharding with AlreadyInitialized; later ones accept it.
	if err := admin.RunCommand(ctx, bson.D{{Key: "enableSharding", Value: col.Database}}).Err(); err != nil && !hasCode(err, codeAlreadyInitialized) {
		return "", fmt.Errorf("enable sharding on %s: %s", col.Database, firstLine(err))
	}
	cmd := bson.D{{Key: "shardCollection", Value: col.Namespace()}, {Key: "key", Value: bson.Raw(col.ShardKey)}}
	if err := admin.RunCommand(ctx, cmd).Err(); err != nil && !hasCode(err, codeAlreadyInitialized) {
		return "", fmt.Errorf("shard %s on %s: %s", col.Namespace(), key, firstLine(err))
	}
	return fmt.Sprintf("%s sharded on %s", col.Namespace(), key), nil
}
