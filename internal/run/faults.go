package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
)

// faultSchedule takes the actions of --fault against the server during the
// measured phase, and keeps what each did for the report.
type faultSchedule struct {
	log    io.Writer
	client *mongodb.Client
	faults []config.Fault
	mu     sync.Mutex
	start  time.Time
	timers []*time.Timer
	done   []results.InjectedFault
	wg     sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc
}

// newFaultSchedule returns nil when the run has no fault schedule.
func newFaultSchedule(ctx context.Context, log io.Writer, cfg *config.Config, client *mongodb.Client) *faultSchedule {
	if len(cfg.Run.Faults) == 0 {
		return nil
	}
	f := &faultSchedule{log: log, client: client}
	for _, s := range cfg.Run.Faults {
		fa, _ := config.ParseFault(s) // validated already
		f.faults = append(f.faults, fa)
	}
	f.ctx, f.cancel = context.WithCancel(ctx)
	return f
}

// begin arms the schedule: the measured phase starts now.
func (f *faultSchedule) begin() {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.start = time.Now()
	for _, fa := range f.faults {
		f.wg.Add(1)
		f.timers = append(f.timers, time.AfterFunc(fa.At, func() { defer f.wg.Done(); f.fire(fa) }))
	}
}

// fire takes one action and says on one line what came of it.
func (f *faultSchedule) fire(fa config.Fault) {
	at := time.Since(f.start)
	ctx, cancel := context.WithTimeout(f.ctx, 30*time.Second)
	err := f.client.StepDown(ctx, fa.For)
	cancel()
	inj := results.InjectedFault{Planned: fa.String(), At: math.Round(at.Seconds()*1000) / 1000, Action: fa.Action, Outcome: "done"}
	switch {
	case err == nil:
		fmt.Fprintf(f.log, "fault at %s: the primary was asked to step down for %s\n", results.Rounded(at), fa.For)
	case errors.Is(err, mongodb.ErrStepDownRefused):
		inj.Outcome, inj.Error = "refused", err.Error()
		fmt.Fprintf(f.log, "fault at %s: %v: the fault schedule measures nothing on this server (it needs a replica set with an electable secondary)\n", results.Rounded(at), err)
	default:
		inj.Outcome, inj.Error = "failed", err.Error()
		fmt.Fprintf(f.log, "fault at %s: stepdown failed: %v\n", results.Rounded(at), err)
	}
	f.mu.Lock()
	f.done = append(f.done, inj)
	f.mu.Unlock()
}

// end cancels the actions not yet taken (they are reported as not reached)
// and waits for those under way.
func (f *faultSchedule) end() []results.InjectedFault {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	var missed []results.InjectedFault
	for i, t := range f.timers {
		if t.Stop() {
			f.wg.Done()
			fa := f.faults[i]
			missed = append(missed, results.InjectedFault{Planned: fa.String(), Action: fa.Action, Outcome: "not reached: the run ended first"})
		}
	}
	if f.start.IsZero() {
		for _, fa := range f.faults {
			missed = append(missed, results.InjectedFault{Planned: fa.String(), Action: fa.Action, Outcome: "not reached: the run ended first"})
		}
	}
	f.mu.Unlock()
	f.cancel()
	f.wg.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	return append(f.done, missed...)
}
