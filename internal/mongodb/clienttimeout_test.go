package mongodb

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/workload"
)

// TestClientTimeoutBoundsWritesOnly: writeConcern.clientTimeout is a
// client-side deadline on writes, as docs/workload.md#write-concern says:
// a write that cannot be acknowledged within it is counted as a timeout by
// the client, a read is not bounded by it; its old name wtimeout still
// works. The deadline (1 ns) is one no round trip can meet.
func TestClientTimeoutBoundsWritesOnly(t *testing.T) {
	for _, key := range []string{"clientTimeout", "wtimeout"} {
		t.Run(key, func(t *testing.T) {
			cl := connectTest(t)
			ctx := context.Background()
			p, _ := plan(t, "")
			if _, err := cl.Prepare(ctx, p, SetupOptions{Create: true}); err != nil {
				t.Fatal(err)
			}
			// The same operations, with the deadline on every write.
			wc := &config.WriteConcern{W: "1"}
			if key == "clientTimeout" {
				wc.ClientTimeout = config.Duration(time.Nanosecond)
			} else {
				wc.WTimeout = config.Duration(time.Nanosecond)
			}
			for _, op := range p.Ops {
				op.WriteConcern = wc
			}
			execs, err := cl.Executors(p)
			if err != nil {
				t.Fatal(err)
			}
			var req workload.Request
			st := newState()
			req.Build(p.Ops[0], st) // insertOne
			if _, err := execs[0].Do(ctx, &req); Classify(err) != ClassTimeout {
				t.Errorf("a write past its client deadline: %v (class %q), want a timeout", err, Classify(err))
			}
			req.Build(p.Ops[1], st) // findOne: not bounded by a write deadline
			if _, err := execs[1].Do(ctx, &req); err != nil {
				t.Errorf("a read under a write concern's clientTimeout failed: %v", err)
			}
		})
	}
}

// TestWTimeoutDeprecated: the old name warns, and both names at once are refused.
func TestWTimeoutDeprecated(t *testing.T) {
	src := `
connection: {writeConcern: {w: majority, wtimeout: 5s}}
collections: [{database: d, name: c, template: {a: 1}}]
operations: [{name: g, type: findOne, weight: 1, filter: {a: 1}}]
`
	cfg, err := config.Parse([]byte(src), "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if d := cfg.Deprecations(); len(d) != 1 || !strings.Contains(d[0], "rename it clientTimeout") || !strings.Contains(d[0], "not the server's write-concern wtimeout") {
		t.Errorf("deprecations %q", d)
	}
	if got := cfg.Connection.WriteConcern.Deadline(); got != 5*time.Second {
		t.Errorf("the old name's deadline is %s, want 5s", got)
	}
	both, _ := config.Parse([]byte(strings.Replace(src, "wtimeout: 5s", "wtimeout: 5s, clientTimeout: 2s", 1)), "w.yaml")
	if es := both.Validate(); len(es) == 0 || !strings.Contains(es.Error(), "give clientTimeout only") {
		t.Errorf("both names: %v", es)
	}
}
