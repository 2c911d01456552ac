package mongodb

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/auth"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/session"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/xoptions"

	"github.com/mongoload/mongoload/internal/config"
)

// The fast path (--driver-path fast) sends the operations a workload sends
// most through the driver's own lower layer (x/mongo/driver: Operation with
// a bsoncore command) instead of the public API, which costs about twice as
// much per operation in option merging, result building, a server-selection
// context and an RTT string per call (docs/performance.md). The lower layer
// still does everything that matters: the same deployment (the client's
// topology, connection pools, monitors, authentication, TLS, compression),
// server selection, implicit sessions, retryable reads and writes,
// $clusterTime gossip, the command monitor and the operation timeout.
//
// x/ has no compatibility promise, so what the public client keeps
// unexported is rebuilt here as the client builds it (mongo/client.go,
// newClient and connect, v2.10.0), and TestLowerLayerPinned fails on a
// driver upgrade until this file is checked against the new client.

// lower is the driver's lower layer shared by every fast executor of a
// client: the client's own deployment, and a session pool, cluster clock and
// defaults of its own, as the public client has.
type lower struct {
	topo      *topology.Topology
	pool      *session.Pool
	clock     *session.ClusterClock
	monitor   *event.CommandMonitor
	serverAPI *driver.ServerAPIOptions
	auth      driver.Authenticator
	timeout   *time.Duration

	retryReads, retryWrites bool
	adaptiveRetries         uint
	retarget                bool
	readConcern             *readconcern.ReadConcern
	readPref                *readpref.ReadPref
	writeConcern            *writeconcern.WriteConcern
}

// defaultAdaptiveRetries is the driver's own (mongo/client.go).
const defaultAdaptiveRetries uint = 2

// newLower builds the deployment the client will use (and tells opts to use
// it), as the public client builds its own from the same options.
func newLower(opts *options.ClientOptions) (*lower, error) {
	l := &lower{clock: new(session.ClusterClock), monitor: opts.Monitor, timeout: opts.Timeout,
		retryReads: true, retryWrites: true, adaptiveRetries: defaultAdaptiveRetries,
		readConcern: &readconcern.ReadConcern{}, readPref: readpref.Primary(), writeConcern: opts.WriteConcern}
	if opts.RetryReads != nil {
		l.retryReads = *opts.RetryReads
	}
	if opts.RetryWrites != nil {
		l.retryWrites = *opts.RetryWrites
	}
	if opts.MaxAdaptiveRetries != nil {
		l.adaptiveRetries = *opts.MaxAdaptiveRetries
	}
	l.retarget = opts.EnableOverloadRetargeting != nil && *opts.EnableOverloadRetargeting
	if opts.ReadConcern != nil {
		l.readConcern = opts.ReadConcern
	}
	if opts.ReadPreference != nil {
		l.readPref = opts.ReadPreference
	}
	if opts.Auth != nil {
		a, err := auth.CreateAuthenticator(opts.Auth.AuthMechanism, topology.ConvertCreds(opts.Auth), opts.HTTPClient)
		if err != nil {
			return nil, fmt.Errorf("error creating authenticator: %w", err)
		}
		l.auth = a
	}
	if opts.MaxPoolSize == nil {
		// mongo.Connect gives an unset pool the drivers' default (its
		// newClient), but only for the deployment it builds itself: this
		// one is built here first, and without the default its pool had
		// no bound. An open loop past the server's capacity then opened a
		// connection for every operation in flight (911 in a 3-second run
		// at 12,000 ops/s): a connection storm on the server measured,
		// which slowed the test server's every later operation.
		opts.SetMaxPoolSize(config.DefaultMaxPoolSize)
	}
	cfg, err := topology.NewAuthenticatorConfig(l.auth, topology.WithAuthConfigClock(l.clock), topology.WithAuthConfigClientOptions(opts))
	if err != nil {
		return nil, err
	}
	var connectTimeout time.Duration
	if opts.ConnectTimeout != nil {
		connectTimeout = *opts.ConnectTimeout
	}
	l.serverAPI = topology.ServerAPIFromServerOptions(connectTimeout, cfg.ServerOpts)
	if l.topo, err = topology.New(cfg); err != nil {
		return nil, err
	}
	if err := xoptions.SetInternalClientOptions(opts, "deployment", l.topo); err != nil {
		return nil, err
	}
	return l, nil
}

// connected starts the session pool once the client has connected the
// deployment: the pool learns the server's session timeout from the
// topology's updates, as the client's does.
func (l *lower) connected() error {
	sub, err := l.topo.Subscribe()
	if err != nil {
		return err
	}
	l.pool = session.NewPool(sub.Updates)
	return nil
}

// endSessions tells the server the pool's sessions are over, as the public
// client does for its own pool on Disconnect (the server would otherwise
// keep them until they time out).
func (l *lower) endSessions(ctx context.Context, cl *Client) {
	if l == nil || l.pool == nil {
		return
	}
	ids := l.pool.IDSlice()
	if len(ids) == 0 {
		return
	}
	arr := bson.A{}
	for _, id := range ids {
		arr = append(arr, bson.Raw(id))
	}
	_ = cl.c.Database("admin").RunCommand(ctx, bson.D{{Key: "endSessions", Value: arr}}).Err()
}
