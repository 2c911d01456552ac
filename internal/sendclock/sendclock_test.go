package sendclock

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestFirstSendCounts: a later mark (a getMore) does not move the send time.
func TestFirstSendCounts(t *testing.T) {
	var c Clock
	if _, ok := c.Sent(); ok {
		t.Fatal("a new clock claims a send")
	}
	ctx := With(context.Background(), &c)
	From(ctx).Mark()
	first, ok := c.Sent()
	From(ctx).Mark()
	if second, _ := c.Sent(); !ok || !second.Equal(first) {
		t.Fatalf("send time moved from %v to %v", first, second)
	}
	c.Reset()
	if _, ok := c.Sent(); ok {
		t.Fatal("Reset kept the send time")
	}
	if From(context.Background()) != nil {
		t.Fatal("a context without a clock returned one")
	}
}

// TestSentIsMonotonic: the send time carries the monotonic clock reading, so
// service time (end.Sub(sent)) is measured on the same clock as response
// time and cannot jump with the wall clock. A time without a monotonic
// reading prints no "m=" (see time.Time.String).
func TestSentIsMonotonic(t *testing.T) {
	var c Clock
	before := time.Now()
	c.Mark()
	after := time.Now()
	sent, ok := c.Sent()
	if !ok {
		t.Fatal("no send recorded")
	}
	if !strings.Contains(sent.String(), " m=") {
		t.Fatalf("send time %v has no monotonic reading: service time would use the wall clock", sent)
	}
	if sent.Before(before) || sent.After(after) {
		t.Fatalf("send time %v outside [%v, %v]", sent, before, after)
	}
	// Stripping the wall clock of both ends leaves the same span: the
	// difference is computed from monotonic readings.
	if d := after.Sub(sent); d < 0 || d > after.Sub(before) {
		t.Fatalf("after-sent = %v, want within [0, %v]", d, after.Sub(before))
	}
}
