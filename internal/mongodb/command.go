package mongodb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
)

// Command runs one database command on db, on the primary (or, with none,
// another member), and returns the reply as it came. The server context,
// collection statistics and explain (internal/serverinfo and
// internal/insights) are read with it, over the connection of Monitor.
func (cl *Client) Command(ctx context.Context, db string, cmd bson.D) (bson.Raw, error) {
	opts := options.RunCmd().SetReadPreference(readpref.PrimaryPreferred())
	name := "command"
	if len(cmd) > 0 {
		name = cmd[0].Key
	}
	t0 := time.Now()
	raw, err := cl.c.Database(db).RunCommand(ctx, cmd, opts).Raw()
	cl.tally.add(name, time.Since(t0))
	if err != nil {
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
	m.tally = cl.tally
	return m, nil
}

// StepDown asks the replica set's primary to step down for d
// (replSetStepDown), on the primary whatever the read preference. A primary
// closes its connections as it steps down, so a network error after the
// command was sent also means it did; ErrStepDownRefused wraps the
// server's answer when it refused.
func (cl *Client) StepDown(ctx context.Context, d time.Duration) error {
	cmd := bson.D{{Key: "replSetStepDown", Value: int64(d / time.Second)}, {Key: "secondaryCatchUpPeriodSecs", Value: int64(min(d/time.Second/2, 10))}}
	opts := options.RunCmd().SetReadPreference(readpref.Primary())
	err := cl.c.Database("admin").RunCommand(ctx, cmd, opts).Err()
	switch {
	case err == nil, mongo.IsNetworkError(err):
		return nil
	case ctx.Err() != nil:
		return err
	}
	return fmt.Errorf("%w: %s", ErrStepDownRefused, Classify(err)+": "+err.Error())
}

// ErrStepDownRefused: the server would not step down (not a replica set,
// no electable secondary, the command unknown, not authorized).
var ErrStepDownRefused = errors.New("the server refused to step down")

// CountExact counts the documents of db.coll one by one (countDocuments),
// not from the collection's metadata, which a server that restarted after
// an unclean shutdown may have wrong.
func (cl *Client) CountExact(ctx context.Context, db, coll string) (int64, error) {
	return cl.c.Database(db).Collection(coll).CountDocuments(ctx, bson.D{})
}
