package mongodb

import (
	"context"
	"fmt"
	"strings"

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
	return mongo.IndexModel{Keys: bson.Raw(ix.Keys), Options: o}
}

// createIndexes creates each index; a refused hashed index is a notice,
// because some servers (and any non-sharded test setup) do without it.
func (cl *Client) createIndexes(ctx context.Context, col *workload.Collection) ([]string, error) {
	var notices []string
	iv := cl.c.Database(col.Database).Collection(col.Name).Indexes()
	for _, ix := range col.Indexes {
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

// shardCollection shards the collection on a sharded cluster; elsewhere the
// shard key is only noted.
func (cl *Client) shardCollection(ctx context.Context, col *workload.Collection, sharded bool) (string, error) {
	if col.ShardKey == nil {
		return "", nil
	}
	if !sharded {
		return fmt.Sprintf("shard key of %s ignored: the server is not a sharded cluster (mongos)", col.Namespace()), nil
	}
	admin := cl.c.Database("admin")
	if err := admin.RunCommand(ctx, bson.D{{Key: "enableSharding", Value: col.Database}}).Err(); err != nil && !strings.Contains(err.Error(), "already") {
		return "", fmt.Errorf("enable sharding on %s: %s", col.Database, firstLine(err))
	}
	cmd := bson.D{{Key: "shardCollection", Value: col.Namespace()}, {Key: "key", Value: bson.Raw(col.ShardKey)}}
	if err := admin.RunCommand(ctx, cmd).Err(); err != nil && !strings.Contains(err.Error(), "already") {
		return "", fmt.Errorf("shard %s on %s: %s", col.Namespace(), bson.Raw(col.ShardKey).String(), firstLine(err))
	}
	return fmt.Sprintf("%s sharded on %s", col.Namespace(), bson.Raw(col.ShardKey).String()), nil
}
