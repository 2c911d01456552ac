// Package mongodb is the only package that imports the MongoDB driver. It
// connects, prepares collections and indexes, executes built requests and
// classifies errors, so the rest of mongoload stays driver-agnostic.
package mongodb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/connstring"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/sendclock"
)

// Client is a connected driver client with the run's defaults applied.
type Client struct {
	c    *mongo.Client
	conn config.Connection
	// notices are one-line messages found while running (a refused command
	// with a fallback), reported once at the end.
	mu      sync.Mutex
	notices []string
	// owned: namespace -> what the run may do to it (ownership.go).
	owned map[string]rights
	// Hosts is what was tried, for messages (no credentials).
	Hosts string
	// unresponsive: the server stopped answering (see Unresponsive).
	unresponsive atomic.Bool
	// tailReads and tailNanos count TailEach's reads and their time (OwnReads).
	tailReads, tailNanos atomic.Int64
	// low is the driver's lower layer over the client's own deployment,
	// used by the fast path (lower.go).
	low *lower
	// tally counts the commands sent beside the workload (tally.go),
	// shared with the clients opened from this one.
	tally *tally
}

// Fast reports whether the run's operations that the fast path knows go
// through the driver's lower layer (--driver-path fast).
func (cl *Client) Fast() bool { return cl.low != nil && cl.conn.Path() == config.DriverPathFast }

// ErrUnreachable means no server answered within the configured timeout.
var ErrUnreachable = errors.New("server unreachable")

// ErrAuth means the server refused the credentials.
var ErrAuth = errors.New("authentication failed")

// CheckURI parses uri the way the driver will, without connecting.
func CheckURI(uri string) error {
	if _, err := connstring.ParseAndValidate(uri); err != nil {
		msg := strings.ReplaceAll(err.Error(), uri, config.RedactURI(uri))
		return &config.Error{Kind: config.BadURI, Field: "connection.uri", Msg: fmt.Sprintf("cannot parse %q: %s", config.RedactURI(uri), msg)}
	}
	return nil
}

// ConnectOptions are what a run asks of the client beyond its connection settings.
type ConnectOptions struct {
	// TrackSends marks the sendclock.Clock carried by an operation's context
	// when its command is sent, so service time can be told from response
	// time, and counts commitTransaction commands (commit retries).
	TrackSends bool
	// OnWait is told, once, what Connect waits for when the server does
	// not answer at once (a line for the user); nil says nothing.
	OnWait func(string)
}

// firstTry is how long Connect waits before it either gives up on servers
// that all refuse connections, or says what it is waiting for.
const firstTry = 2 * time.Second

// firstPing waits for a server within wait. Every server refusing
// connections within firstTry is a definite answer (nothing listens
// there), reported at once instead of after the whole server-selection
// timeout; any other silence may end (an election, a slow network), so
// Connect says what it waits for and goes on waiting.
func (cl *Client) firstPing(ctx context.Context, wait time.Duration, co ...ConnectOptions) error {
	start := time.Now()
	try := min(wait, firstTry)
	tryCtx, cancel := context.WithTimeout(ctx, try)
	err := cl.c.Ping(tryCtx, readpref.PrimaryPreferred())
	cancel()
	if err == nil || ctx.Err() != nil || try == wait {
		if err != nil {
			return cl.connectError(err, wait)
		}
		return nil
	}
	if allRefused(err) {
		return fmt.Errorf("%w: nothing listens at %s (connection refused): is the server running, and is that its address?", ErrUnreachable, cl.Hosts)
	}
	// The rest of the timeout, from the start: what the line promises is
	// when Connect gives up (the driver's own selection timeout would
	// start again from here).
	left := wait - time.Since(start)
	if len(co) > 0 && co[0].OnWait != nil {
		co[0].OnWait(fmt.Sprintf("no answer yet from %s: waiting up to %s more (the server-selection timeout, --server-selection-timeout)", cl.Hosts, left.Round(100*time.Millisecond)))
	}
	restCtx, cancel := context.WithTimeout(ctx, left)
	defer cancel()
	if err := cl.c.Ping(restCtx, readpref.PrimaryPreferred()); err != nil {
		return cl.connectError(err, wait)
	}
	return nil
}

// allRefused reports whether a server-selection failure found every known
// server refusing connections.
func allRefused(err error) bool {
	var sse topology.ServerSelectionError
	if !errors.As(err, &sse) || len(sse.Desc.Servers) == 0 {
		return false
	}
	for _, s := range sse.Desc.Servers {
		if !errors.Is(s.LastError, syscall.ECONNREFUSED) {
			return false
		}
	}
	return true
}

// commandMonitor marks the operation's send clock. Failed commands are
// always counted (a command that failed in an operation that then succeeded
// was retried by the driver); with no Succeeded callback the driver
// publishes nothing for a success, so this costs nothing until a failure.
// Started, which makes the driver copy every command, is installed only when
// sends are tracked.
func commandMonitor(trackSends bool) *event.CommandMonitor {
	m := &event.CommandMonitor{Failed: func(ctx context.Context, _ *event.CommandFailedEvent) {
		if c := sendclock.From(ctx); c != nil {
			c.Failed()
		}
	}}
	if trackSends {
		m.Started = func(ctx context.Context, e *event.CommandStartedEvent) {
			if c := sendclock.From(ctx); c != nil {
				c.Command(e.CommandName)
			}
		}
	}
	return m
}

// Connect opens a client and pings the server, failing within the
// server-selection timeout with the address tried.
func Connect(ctx context.Context, conn config.Connection, co ...ConnectOptions) (*Client, error) {
	opts, err := clientOptions(conn)
	if err != nil {
		return nil, err
	}
	opts.SetMonitor(commandMonitor(len(co) > 0 && co[0].TrackSends))
	low, err := newLower(opts)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", config.RedactURI(conn.URI), err)
	}
	c, err := mongo.Connect(opts)
	if err == nil {
		err = low.connected()
	}
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", config.RedactURI(conn.URI), err)
	}
	cl := &Client{c: c, conn: conn, Hosts: strings.Join(opts.Hosts, ","), low: low, tally: &tally{}}
	wait := conn.Timeouts.ServerSelection.D()
	if wait <= 0 {
		wait = 30 * time.Second
	}
	pingCtx, cancel := context.WithTimeout(ctx, wait+time.Second)
	defer cancel()
	if err := cl.firstPing(pingCtx, wait, co...); err != nil {
		// A caller whose own bound ran out does not wait on the goodbye
		// either (a frozen server held a run's exit a second longer).
		disconnectWithin(c, givenUp(ctx))
		return nil, err
	}
	if opts.Auth == nil {
		// ping needs no login, so a server that requires one would only
		// say so at the first real command, as a setup failure. Ask now.
		if err := cl.needsLogin(pingCtx); err != nil {
			disconnectWithin(c, givenUp(ctx))
			return nil, err
		}
	}
	return cl, nil
}

// needsLogin tells a server that requires authentication from one that
// does not, when no credentials were given: listDatabases (names only) is
// refused with Unauthorized by the former. Any other answer lets the
// connection go on (a server may not know the command).
func (cl *Client) needsLogin(ctx context.Context) error {
	cmd := bson.D{{Key: "listDatabases", Value: 1}, {Key: "nameOnly", Value: true}, {Key: "authorizedDatabases", Value: true}}
	err := cl.c.Database("admin").RunCommand(ctx, cmd).Err()
	if hasCode(err, codeUnauthorized) {
		return fmt.Errorf("%w: the server at %s requires authentication and no credentials were given: set MONGOLOAD_USERNAME and MONGOLOAD_PASSWORD (or put the user in the URI), and --auth-source if the user is not defined in admin", ErrAuth, cl.Hosts)
	}
	return nil
}

func (cl *Client) connectError(err error, wait time.Duration) error {
	var ce mongo.CommandError
	if errors.As(err, &ce) && (ce.Code == codeAuthFailed || ce.Name == "AuthenticationFailed") || strings.Contains(err.Error(), "auth error") {
		return fmt.Errorf("%w at %s: check the user name and password (MONGOLOAD_USERNAME/MONGOLOAD_PASSWORD or the URI) and authSource", ErrAuth, cl.Hosts)
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("%w: no answer from %s within %s (%s)", ErrUnreachable, cl.Hosts, wait, firstLine(err))
}

func firstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

func (cl *Client) notice(n string) {
	cl.mu.Lock()
	cl.notices = append(cl.notices, n)
	cl.mu.Unlock()
}

// Notices returns and forgets the notices gathered while running.
func (cl *Client) Notices() []string {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	n := cl.notices
	cl.notices = nil
	return n
}

// Unresponsive says the server stopped answering (a run abandoned its
// operations): Close then gives the goodbye (endSessions) a moment only.
func (cl *Client) Unresponsive() { cl.unresponsive.Store(true) }

// Close disconnects, waiting at most a few seconds for in-flight work, or
// not at all if the server was Unresponsive: the process has nothing left
// to tell a frozen server, and must exit within its promised bound.
func (cl *Client) Close() {
	wait := 5 * time.Second
	if cl.unresponsive.Load() {
		wait = 0
	}
	if wait > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		cl.low.endSessions(ctx, cl)
		cancel()
	}
	disconnectWithin(cl.c, wait)
}

// givenUp is how long a failed Connect waits for its disconnect: a second,
// or nothing once the caller's ctx is done.
func givenUp(ctx context.Context) time.Duration {
	if ctx.Err() != nil {
		return 0
	}
	return time.Second
}

// disconnectWithin disconnects c, returning after wait at the most. The
// driver's Disconnect bounds by its context only the wait for connections in
// use: it then waits, unbounded, for each server's monitor, whose heartbeat
// a frozen server holds for the whole connect timeout. The process has no
// use for the client any more, so what is left finishes in the background.
func disconnectWithin(c *mongo.Client, wait time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	done := make(chan struct{})
	go func() {
		defer cancel()
		_ = c.Disconnect(ctx)
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// Hello returns the server's hello reply (topology, version hints).
func (cl *Client) Hello(ctx context.Context) (bson.M, error) {
	var out bson.M
	t0 := time.Now()
	err := cl.c.Database("admin").RunCommand(ctx, bson.D{{Key: "hello", Value: 1}}).Decode(&out)
	cl.tally.add("hello", time.Since(t0))
	return out, err
}

// Sharded reports whether the client talks to mongos.
func (cl *Client) Sharded(ctx context.Context) (bool, error) {
	h, err := cl.Hello(ctx)
	if err != nil {
		return false, err
	}
	return h["msg"] == "isdbgrid", nil
}
