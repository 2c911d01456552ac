package mongodb

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
)

// Command runs one database command on db, on the primary (or, with none,
// another member), and returns the reply as it came. The server context,
// collection statistics and explain (internal/serverinfo and
// internal/insights) are read with it, over the connection of Monitor.
func (cl *Client) Command(ctx context.Context, db string, cmd bson.D) (bson.Raw, error) {
	opts := options.RunCmd().SetReadPreference(readpref.PrimaryPreferred())
	raw, err := cl.c.Database(db).RunCommand(ctx, cmd, opts).Raw()
	if err != nil {
		name := "command"
		if len(cmd) > 0 {
			name = cmd[0].Key
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return raw, nil
}

// Inspector opens a second client for the commands that read the server's
// context before a run and explain its slow shapes after it: a pool of one
// connection, so that they never take a connection from the workload, with
// the appName suffixed "-inspect". Close it when done.
func (cl *Client) Inspector(ctx context.Context) (*Client, error) {
	conn := cl.conn
	conn.MaxPoolSize, conn.MinPoolSize = 1, 0
	conn.AppName += "-inspect"
	conn.Timeouts.Operation = 0 // each command carries its own deadline
	conn.Compressors = nil
	m, err := Connect(ctx, conn)
	if err != nil {
		return nil, fmt.Errorf("inspection connection: %w", err)
	}
	return m, nil
}
