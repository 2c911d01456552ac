package mongodb

import (
	"testing"

	"github.com/mongoload/mongoload/internal/config"
)

// TestPoolBoundedByDefault: the deployment newLower builds for the client
// (and its fast path) has the drivers' default pool when none is given, as
// mongo.Connect's own would (its newClient sets it only for a deployment it
// builds). Without it the pool had no bound: an open loop at 12,000 ops/s
// past the test server's capacity opened 911 connections in 3 seconds,
// counted by the driver's pool events, and the server's every later
// operation cost more CPU (102 µs before, 186 µs after five such runs). A
// pool given in the URI or by --max-pool-size stands.
func TestPoolBoundedByDefault(t *testing.T) {
	for _, tt := range []struct {
		uri  string
		pool uint64
		want uint64
	}{
		{"mongodb://127.0.0.1:1", 0, config.DefaultMaxPoolSize},
		{"mongodb://127.0.0.1:1/?maxPoolSize=7", 0, 7},
		{"mongodb://127.0.0.1:1", 12, 12},
	} {
		opts, err := clientOptions(config.Connection{URI: tt.uri, MaxPoolSize: tt.pool})
		if err != nil {
			t.Fatal(err)
		}
		l, err := newLower(opts)
		if err != nil {
			t.Fatal(err)
		}
		_ = l.topo.Disconnect(t.Context())
		if opts.MaxPoolSize == nil || *opts.MaxPoolSize != tt.want {
			t.Errorf("%s with --max-pool-size %d: the deployment's pool is %v, want %d", tt.uri, tt.pool, opts.MaxPoolSize, tt.want)
		}
	}
}
