package mongodb

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
)

// Monitor opens a second client to the same deployment for server
// telemetry: a pool of one connection, so that sampling never waits behind
// the workload for a connection and never takes one from it, with the
// appName suffixed "-telemetry" so it can be told apart in the server's
// logs. Close it when done.
func (cl *Client) Monitor(ctx context.Context) (*Client, error) {
	conn := cl.conn
	conn.MaxPoolSize, conn.MinPoolSize = 1, 0
	conn.AppName += "-telemetry"
	conn.Timeouts.Operation = 0 // each command carries its own deadline
	conn.Compressors = nil      // replies are small
	m, err := Connect(ctx, conn)
	if err != nil {
		return nil, fmt.Errorf("telemetry connection: %w", err)
	}
	m.tally = cl.tally
	return m, nil
}

// ServerStatus runs serverStatus on the primary (or, with none, another
// member) and returns the reply as it came.
func (cl *Client) ServerStatus(ctx context.Context) (bson.Raw, error) {
	return cl.adminCommand(ctx, "serverStatus")
}

// ReplSetGetStatus runs replSetGetStatus. A standalone server fails it with
// NoReplicationEnabled, mongos with CommandNotFound or
// CommandNotSupported.
func (cl *Client) ReplSetGetStatus(ctx context.Context) (bson.Raw, error) {
	return cl.adminCommand(ctx, "replSetGetStatus")
}

func (cl *Client) adminCommand(ctx context.Context, name string) (bson.Raw, error) {
	opts := options.RunCmd().SetReadPreference(readpref.PrimaryPreferred())
	t0 := time.Now()
	raw, err := cl.c.Database("admin").RunCommand(ctx, bson.D{{Key: name, Value: 1}}, opts).Raw()
	cl.tally.add(name, time.Since(t0))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return raw, nil
}
