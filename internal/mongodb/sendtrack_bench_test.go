package mongodb

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/workload"
)

// BenchmarkSendTracking measures what timing the send costs: the driver's
// command monitor, which open loop, sessions and transaction runs install
// (engine.TracksSends), makes the driver copy every command it sends
// (document sequences included) for the started event. Compare B/op and
// ns/op of on against off:
//
//	go test -run '^$' -bench SendTracking -benchmem ./internal/mongodb
func BenchmarkSendTracking(b *testing.B) {
	uri := testserver.URI(b)
	db := fmt.Sprintf("mlbench_%d", time.Now().UnixNano())
	plan := compile(b, fmt.Sprintf(`
collections:
  - database: %s
    name: c
    template: {k: {$gen: key}, pad: {$gen: string, length: 2000}}
operations:
  - {name: get, type: findOne, weight: 1, filter: {k: {$gen: key}}}
  - {name: batch, type: insertMany, weight: 1, batchSize: 10}
`, db))
	plan.Collections[0].Keys.Reset(0, 1000)
	execs := map[bool][]*Executor{}
	for _, on := range []bool{false, true} {
		cl, err := Connect(context.Background(), config.Connection{URI: uri}, ConnectOptions{TrackSends: on})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(cl.Close)
		if execs[on], err = cl.Executors(plan); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background() // Do carries the send clock itself
	st := generate.NewState(1, 1)
	// Both findOnes first, on the same (empty) collection; then the inserts.
	for i, name := range []string{"findOne", "insertMany10x2KB"} {
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/track=%v", name, on), func(b *testing.B) {
				var req workload.Request
				b.ReportAllocs()
				for b.Loop() {
					req.Build(plan.Ops[i], st)
					if _, err := execs[on][i].Do(ctx, &req); err != nil {
						b.Fatal(err)
					}
					req.Release()
				}
			})
		}
	}
}
