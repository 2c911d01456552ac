package replay

import (
	"context"
	"io"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/dbcommand"
	"github.com/mongoload/mongoload/internal/recording"
	"github.com/mongoload/mongoload/internal/trace"
)

// traffic.go: what another command that replays a trace (ab, on both of
// its sides) needs of one: its kind told by content, a filter on what is
// sent, and the replay's own configuration, line and checks.

// Keep says why a command (as it would be sent) is not sent, or "" to send
// it; its reasons are counted under "not sent".
type Keep func(cmd bson.Raw) string

// IsTraffic says whether path holds captured traffic: a trace (capture
// --trace) or a MongoDB traffic recording, told apart from a workload by
// their content, not their names.
func IsTraffic(path string) bool { return trace.IsTrace(path) || recording.IsRecording(path) }

// IsRecording says whether the trace was read from a MongoDB traffic
// recording (which names no deployment and says nothing of completeness).
func (t *Trace) IsRecording() bool { return t.Header.Tool == recording.Tool }

// Configure makes cfg the configuration of a replay of t paced by p (as
// replay's own).
func (t *Trace) Configure(cfg *config.Config, p Pace) { t.configure(cfg, p) }

// Line says what will be replayed, before anything is sent.
func (t *Trace) Line(p Pace) string { return t.line(p) }

// CheckNamespaces names on log each collection of the trace that cfg's
// target lacks.
func (t *Trace) CheckNamespaces(ctx context.Context, log io.Writer, cfg *config.Config) error {
	return t.checkNamespaces(ctx, log, cfg)
}

// NotSent is what the trace holds that is not sent, by why.
func (t *Trace) NotSent() map[string]int64 { return t.Skipped }

// ShapeOf is the shape an entry of the trace is measured under (nil when
// it is not sent).
func (t *Trace) ShapeOf(e trace.Entry) *Shape {
	_, cls, _ := t.command(e)
	return t.byShape[shapeKey(e.Shape, cls)]
}

// Each calls fn with every entry of the trace that is sent, in the file's
// order, with the command sent for it, until fn returns false.
func (t *Trace) Each(fn func(e trace.Entry, cmd bson.Raw, sh *Shape) bool) error {
	r, err := openEntries(t.Path)
	if err != nil {
		return err
	}
	defer r.Close()
	for {
		e, err := r.Next()
		if err != nil {
			return nil // the end, or what the scan already counted
		}
		cmd, cls, why := t.command(e)
		if sh := t.byShape[shapeKey(e.Shape, cls)]; why == "" && sh != nil && !fn(e, cmd, sh) {
			return nil
		}
	}
}

// command is what is sent for e, or why it is not.
func (t *Trace) command(e trace.Entry) ([]byte, dbcommand.Class, string) {
	cmd, cls, why := command(e.Op, e.NS, e.Cmd, t.Policy)
	if why == "" && t.keep != nil {
		why = t.keep(cmd)
	}
	return cmd, cls, why
}
