package sendclock

import (
	"context"
	"testing"
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
