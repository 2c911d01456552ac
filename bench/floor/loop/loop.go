// Package loop is the measured loop of the floor programs (bench/floor/*):
// workers goroutines, each running its next operation until the duration
// is over, counted with one atomic add each and nothing else, so that the
// floors differ only in the operations they send.
package loop

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Run starts workers goroutines; each calls newWorker once for its own
// operation function and then calls it until d has passed. An operation
// that returns an error is counted as an error, not as an operation.
func Run(workers int, d time.Duration, newWorker func(w int) func() error) (ops, errs int64) {
	var nOps, nErrs atomic.Int64
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			op := newWorker(w)
			for time.Now().Before(stop) {
				if op() != nil {
					nErrs.Add(1)
					continue
				}
				nOps.Add(1)
			}
		}()
	}
	wg.Wait()
	return nOps.Load(), nErrs.Load()
}

// Report is the line make bench reads: "ops=N ops/s=R errors=E".
func Report(ops, errs int64, d time.Duration) string {
	return fmt.Sprintf("ops=%d ops/s=%.0f errors=%d", ops, float64(ops)/d.Seconds(), errs)
}
