package loop

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunCounts: every call is counted once, as an operation or, when it
// failed, as an error; each worker gets its own operation function.
func TestRunCounts(t *testing.T) {
	var calls, failed, made atomic.Int64
	ops, errs := Run(3, 30*time.Millisecond, func(int) func() error {
		made.Add(1)
		n := 0
		return func() error {
			calls.Add(1)
			if n++; n%3 == 0 {
				failed.Add(1)
				return errors.New("refused")
			}
			return nil
		}
	})
	if made.Load() != 3 {
		t.Errorf("%d operation functions made, want one per worker (3)", made.Load())
	}
	if ops+errs != calls.Load() || errs != failed.Load() || ops == 0 {
		t.Errorf("ops=%d errs=%d, want ops+errs = %d calls and errs = %d failures", ops, errs, calls.Load(), failed.Load())
	}
}

func TestReport(t *testing.T) {
	if got, want := Report(3000, 2, 2*time.Second), "ops=3000 ops/s=1500 errors=2"; got != want {
		t.Errorf("Report = %q, want %q", got, want)
	}
}
