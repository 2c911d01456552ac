package telemetry

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mongoload/mongoload/internal/results"
)

// ClientOp is what the client did with one operation of the workload during
// the measured phase.
type ClientOp struct {
	Name, Type string // Type as in the workload: find, insertMany, upsert, ...
	Count      int64  // successful operations
	Errors     int64  // failed operations: the server may have counted them
	BatchSize  int    // documents per insertMany
}

// CheckInput is everything the cross-check compares.
type CheckInput struct {
	Ops []ClientOp
	// Server is the opcounter deltas over the measured phase.
	Server results.Opcounters
	// Own is the commands mongoload itself sent during the phase besides
	// the workload: the sampler's, and one handshake per new connection.
	Own int64
	// NewConnections is connections the server accepted during the phase
	// (each authenticates with up to three more commands).
	NewConnections int64
	// InFlight is the most operations in flight at once: that many may sit
	// on either side of the phase's edges.
	InFlight int
	// Duration is the measured phase; StartLag how long after its start the
	// first sample was taken (operations in between are the client's only).
	Duration, StartLag time.Duration
	// Streams is the change streams the workload's watchers held open:
	// each holds a connection and sends getMores the whole run.
	Streams int
}

// inc is what one operation adds to one opcounter.
type inc struct {
	counter string
	n       int64
}

// model is one set of counting rules: which opcounters an operation type
// increments, and by how much per operation; ok is false for a type it
// does not know.
type model struct {
	name  string
	count func(typ string, batch int) (incs []inc, ok bool)
}

// models are the counting rules of the servers mongoload knows, in order of
// preference: docs/telemetry.md explains each.
//
//   - mongod (MongoDB's own server): find counts as a query, aggregate and
//     count as commands, findAndModify as a command, an insert command
//     counts each document.
//   - per-command (SecantusDB 0.5, measured): an insert command counts once
//     whatever its documents, and aggregate and count count as queries.
var models = []model{
	{"mongod", func(typ string, batch int) ([]inc, bool) {
		switch typ {
		case "insertMany":
			return []inc{{"insert", int64(max(batch, 1))}}, true
		case "aggregate", "countDocuments":
			return []inc{{"command", 1}}, true
		}
		return common(typ)
	}},
	{"per-command", func(typ string, batch int) ([]inc, bool) {
		switch typ {
		case "insertMany":
			return []inc{{"insert", 1}}, true
		case "aggregate", "countDocuments":
			return []inc{{"query", 1}}, true
		}
		return common(typ)
	}},
}

// common is what every known server agrees on.
func common(typ string) ([]inc, bool) {
	switch typ {
	case "find", "findOne":
		return []inc{{"query", 1}}, true
	case "insertOne":
		return []inc{{"insert", 1}}, true
	case "updateOne", "updateMany", "replaceOne", "upsert":
		return []inc{{"update", 1}}, true
	case "deleteOne", "deleteMany":
		return []inc{{"delete", 1}}, true
	case "findOneAndUpdate":
		return []inc{{"command", 1}}, true
	case "readModifyWrite": // a findOne, then an updateOne when it found the document
		return []inc{{"query", 1}, {"update", 1}}, true
	}
	return nil, false
}

// counters are the opcounters, in the order the cross-check lists them.
var counters = []string{"query", "insert", "update", "delete", "command", "getmore"}

// CrossCheck compares the server's opcounter deltas with what the client's
// operations should have made it count, under the counting model that fits
// best, and flags every counter that differs by more than its tolerance.
// Operation types no model maps are listed in the returned notes.
func CrossCheck(in CheckInput) (*results.CrossCheck, []string) {
	var best *results.CrossCheck
	bestScore := math.Inf(1)
	for _, m := range models {
		cc := check(m, in)
		if s := score(cc); s < bestScore {
			best, bestScore = cc, s
		}
	}
	var notes []string
	for _, op := range in.Ops {
		if _, ok := models[0].count(op.Type, op.BatchSize); !ok {
			notes = append(notes, fmt.Sprintf("%s (%s): the cross-check does not know which counter this operation type increments; it is left out", op.Name, op.Type))
		}
	}
	return best, notes
}

// check builds the rows under one model.
func check(m model, in CheckInput) *results.CrossCheck {
	cc := &results.CrossCheck{Model: m.name, OK: true, WatcherStreams: in.Streams}
	server := serverCounts(in.Server)
	for _, c := range counters {
		got, ok := server[c]
		if !ok {
			continue // the server does not report it
		}
		row := results.CrossCheckRow{Counter: c, Server: got}
		var perOpMax, errs int64
		for _, op := range in.Ops {
			incs, _ := m.count(op.Type, op.BatchSize)
			for _, x := range incs {
				if x.counter != c {
					continue
				}
				row.Ops = append(row.Ops, op.Name)
				row.Expected += op.Count * x.n
				errs += op.Errors * x.n
				perOpMax = max(perOpMax, x.n)
			}
		}
		if c == "command" {
			row.Own = in.Own
		}
		if c == "getmore" && in.Streams > 0 {
			row.Ops = append(row.Ops, fmt.Sprintf("%d watcher stream(s)", in.Streams))
		}
		row.Tolerance = tolerance(row, in, perOpMax, errs)
		row.Status = status(row)
		if row.Status == "more" || row.Status == "fewer" {
			cc.OK = false
		}
		cc.Rows = append(cc.Rows, row)
	}
	return cc
}

// tolerance is how far the server may be from the prediction without a
// flag: operations in flight at either edge of the phase; those finished
// before the first sample; failed operations, which a server may or may not
// count; 1% for timing; and for commands, driver heartbeats (about one per
// connection pool and monitor every 10 s) and the authentication of new
// connections.
func tolerance(row results.CrossCheckRow, in CheckInput, perOpMax, errs int64) int64 {
	tol := 2*int64(in.InFlight)*perOpMax + errs + row.Expected/100
	if in.Duration > 0 && in.StartLag > 0 {
		tol += int64(math.Ceil(float64(row.Expected) * in.StartLag.Seconds() / in.Duration.Seconds()))
	}
	if row.Counter == "command" {
		tol += 4*(int64(in.Duration/(10*time.Second))+1) + 3*in.NewConnections
	}
	return tol
}

func status(row results.CrossCheckRow) string {
	if row.Counter == "getmore" {
		return "info" // cursors' batches depend on document sizes: not predicted
	}
	diff := row.Server - row.Expected - row.Own
	switch {
	case diff > row.Tolerance:
		return "more"
	case -diff > row.Tolerance:
		return "fewer"
	}
	return "ok"
}

// score is how badly a model fits: the counts outside the tolerances.
func score(cc *results.CrossCheck) float64 {
	var s float64
	for _, r := range cc.Rows {
		if r.Status == "info" {
			continue
		}
		diff := math.Abs(float64(r.Server - r.Expected - r.Own))
		s += math.Max(0, diff-float64(r.Tolerance))
	}
	return s
}

// serverCounts maps the opcounters the server reported by name.
func serverCounts(o results.Opcounters) map[string]int64 {
	m := map[string]int64{}
	for name, p := range map[string]*int64{"insert": o.Insert, "query": o.Query, "update": o.Update, "delete": o.Delete, "getmore": o.Getmore, "command": o.Command} {
		if p != nil {
			m[name] = *p
		}
	}
	return m
}

// Flagged returns the rows that did not match, for messages.
func Flagged(cc *results.CrossCheck) []results.CrossCheckRow {
	if cc == nil {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(cc.Rows), func(r results.CrossCheckRow) bool { return r.Status != "more" && r.Status != "fewer" })
}
