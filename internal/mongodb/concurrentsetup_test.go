package mongodb

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestPartitionsCreateOneCollection: the processes of one partitioned run
// (pods of an Indexed Job, started in the same second) set up the same new
// collection at once. Every one of them must find it mongoload's: before,
// a process that saw the collection a moment after another created it,
// and before that one had marked it, refused to write ("existed before")
// and one pod of the Job failed (seen on the scale-out end-to-end test).
func TestPartitionsCreateOneCollection(t *testing.T) {
	const processes, rounds = 4, 12
	clients := make([]*Client, processes)
	for i := range clients {
		clients[i] = connectTest(t)
	}
	ctx := context.Background()
	for r := range rounds {
		db := fmt.Sprintf("mlpart_%d_%d", time.Now().UnixNano(), r)
		errs := make([]error, processes)
		var start, done sync.WaitGroup
		start.Add(1)
		for i, cl := range clients {
			p := compile(t, strings.Replace(planSource, "DB", db, 1))
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				_, errs[i] = cl.Prepare(ctx, p, SetupOptions{Create: true, OwnIndexes: true})
			}()
		}
		start.Done()
		done.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, process %d of %d: %v", r, i, processes, err)
			}
		}
		for i, cl := range clients {
			if !cl.isOwned(db + ".c") {
				t.Fatalf("round %d: process %d may not write into %s.c", r, i, db)
			}
		}
	}
}

const planSource = `
collections:
  - database: DB
    name: c
    template: {k: {$gen: key}}
    indexes:
      - keys: {k: 1}
operations:
  - {name: put, type: insertOne, weight: 1}
`
