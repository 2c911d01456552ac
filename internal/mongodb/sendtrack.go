package mongodb

import (
	"context"
	"sync"

	"github.com/mongoload/mongoload/internal/sendclock"
)

// The driver tells its command monitor (commandMonitor) of a command's send
// and failure with nothing but the operation's context, so an operation's
// send clock has to travel in its context. That carrier is this package's
// own business: Do puts it in and reads it back into the Reply, and the
// engine sees only the Reply.

// tracked is one operation's send clock and the context that carries it.
// Both are reused: the context is made again only when the caller's
// context changes (once per run), so tracking allocates nothing per
// operation; the pool hands each operation in flight its own.
type tracked struct {
	parent context.Context
	ctx    context.Context // parent carrying clock
	clock  sendclock.Clock
}

var trackers = sync.Pool{New: func() any { return new(tracked) }}

// track returns a reset send clock carried by a context derived from ctx.
// Give it back with t.done once the operation has returned.
func track(ctx context.Context) *tracked {
	t := trackers.Get().(*tracked)
	// Contexts compare by identity (every context type is a pointer or a
	// comparable struct): the engine's is the same for a whole run.
	if t.parent != ctx {
		t.parent, t.ctx = ctx, sendclock.With(ctx, &t.clock)
	}
	t.clock.Reset()
	return t
}

// done returns t to the pool.
func (t *tracked) done() { trackers.Put(t) }
