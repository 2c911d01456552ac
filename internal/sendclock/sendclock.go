// Package sendclock records when an operation was actually sent to the
// server, as opposed to when it was scheduled or handed to the driver. The
// driver layer marks the clock carried by the operation's context when it
// publishes the command (after a connection was checked out), and replies
// with what it recorded (workload.Reply): the clock and its context are the
// driver package's private plumbing (archtest keeps them there), and the
// engine reads the send time from the reply to separate service time from
// response time.
package sendclock

import (
	"context"
	"sync/atomic"
	"time"
)

// base anchors the clock: send times are kept as monotonic offsets from it,
// so a send time subtracted from a later time.Now() is immune to wall-clock
// steps (NTP, a manual change), like every other latency.
var base = time.Now()

// Clock holds the time of the first send of the current operation, counts
// the commitTransaction commands the runner has sent (their excess over the
// transactions that reached commit are commit retries), and the current
// operation's commands that failed (one that failed and then succeeded was
// retried by the driver).
type Clock struct {
	ns       atomic.Int64
	commits  atomic.Int64
	failures atomic.Int64
}

// Failed counts a command of the current operation that failed.
func (c *Clock) Failed() { c.failures.Add(1) }

// Failures is how many commands of the current operation failed.
func (c *Clock) Failures() int64 { return c.failures.Load() }

// Command marks a command's send; commits are counted.
func (c *Clock) Command(name string) {
	c.Mark()
	if name == "commitTransaction" {
		c.commits.Add(1)
	}
}

// Commits is how many commitTransaction commands were sent through c.
func (c *Clock) Commits() int64 { return c.commits.Load() }

// Mark records now as the send time, unless one was already recorded (a find
// sends getMores after its first command: the first send counts).
// The offset is stored plus one, so 0 still means "nothing sent".
func (c *Clock) Mark() { c.ns.CompareAndSwap(0, int64(time.Since(base))+1) }

// Reset forgets the send time and the failures, before the next operation.
func (c *Clock) Reset() {
	c.ns.Store(0)
	c.failures.Store(0)
}

// Sent returns the recorded send time, carrying the monotonic clock reading,
// and false if nothing was sent.
func (c *Clock) Sent() (time.Time, bool) {
	ns := c.ns.Load()
	if ns == 0 {
		return time.Time{}, false
	}
	return base.Add(time.Duration(ns - 1)), true
}

type key struct{}

// With returns ctx carrying c. A runner makes this context once and reuses
// it for every operation, so marking costs no allocation per operation.
func With(ctx context.Context, c *Clock) context.Context { return context.WithValue(ctx, key{}, c) }

// From returns the clock ctx carries, or nil.
func From(ctx context.Context) *Clock {
	c, _ := ctx.Value(key{}).(*Clock)
	return c
}
