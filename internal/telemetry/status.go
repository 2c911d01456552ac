// Package telemetry turns what the server says about itself into a time
// series beside the client's: serverStatus (and replSetGetStatus) sampled
// every interval over a connection of its own, reduced to deltas per
// interval, and a cross-check of the server's operation counters against
// the operations mongoload sent.
//
// The reduction is pure functions over bson documents (Parse, Delta,
// CrossCheck), tested with documents captured from a real server; Sampler
// runs them against a Source. A field the server does not report is absent
// (nil), never 0. docs/telemetry.md lists every field and where it comes
// from.
package telemetry

import (
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// kind says how a field is reported: a counter becomes a delta per
// interval, a gauge is the value at the sample.
type kind uint8

const (
	counter kind = iota
	gauge
)

// field is one value mongoload reads from serverStatus.
type field struct {
	name string // the sample's JSON path, such as "cache.bytesInUse"
	kind kind
	// paths are where servers report it, tried in order: versions moved
	// some fields.
	paths [][]string
}

// fields lists every serverStatus value a sample carries. Names are the
// sample's JSON paths (results.ServerSample), so that Absent can name them.
var fields = []field{
	{"opcounters.insert", counter, p("opcounters", "insert")},
	{"opcounters.query", counter, p("opcounters", "query")},
	{"opcounters.update", counter, p("opcounters", "update")},
	{"opcounters.delete", counter, p("opcounters", "delete")},
	{"opcounters.getmore", counter, p("opcounters", "getmore")},
	{"opcounters.command", counter, p("opcounters", "command")},
	{"opLatencies.reads.ops", counter, p("opLatencies", "reads", "ops")},
	{"opLatencies.reads.latency", counter, p("opLatencies", "reads", "latency")},
	{"opLatencies.writes.ops", counter, p("opLatencies", "writes", "ops")},
	{"opLatencies.writes.latency", counter, p("opLatencies", "writes", "latency")},
	{"opLatencies.commands.ops", counter, p("opLatencies", "commands", "ops")},
	{"opLatencies.commands.latency", counter, p("opLatencies", "commands", "latency")},
	{"opLatencies.transactions.ops", counter, p("opLatencies", "transactions", "ops")},
	{"opLatencies.transactions.latency", counter, p("opLatencies", "transactions", "latency")},
	{"connections.current", gauge, p("connections", "current")},
	{"connections.available", gauge, p("connections", "available")},
	// Not in the sample: new connections are mongoload's own handshakes in
	// the cross-check.
	{"connections.totalCreated", counter, p("connections", "totalCreated")},
	{"cache.bytesInUse", gauge, p("wiredTiger", "cache", "bytes currently in the cache")},
	{"cache.dirtyBytes", gauge, p("wiredTiger", "cache", "tracked dirty bytes in the cache")},
	{"cache.maxBytes", gauge, p("wiredTiger", "cache", "maximum bytes configured")},
	{"cache.pagesReadIntoCache", counter, p("wiredTiger", "cache", "pages read into cache")},
	// MongoDB 7.0 and later report execution tickets under queues;
	// earlier versions under wiredTiger.concurrentTransactions.
	{"tickets.readAvailable", gauge, p("queues", "execution", "read", "available").or("wiredTiger", "concurrentTransactions", "read", "available")},
	{"tickets.writeAvailable", gauge, p("queues", "execution", "write", "available").or("wiredTiger", "concurrentTransactions", "write", "available")},
	{"network.bytesIn", counter, p("network", "bytesIn")},
	{"network.bytesOut", counter, p("network", "bytesOut")},
	{"transactions.committed", counter, p("transactions", "totalCommitted")},
	{"transactions.aborted", counter, p("transactions", "totalAborted")},
	// Microseconds; the sample has seconds.
	{"cpu.userSeconds", counter, p("extra_info", "user_time_us")},
	{"cpu.systemSeconds", counter, p("extra_info", "system_time_us")},
}

type paths [][]string

func p(path ...string) paths { return paths{path} }

func (ps paths) or(path ...string) paths { return append(ps, path) }

// Status is one serverStatus reply reduced to what mongoload reads.
type Status struct {
	// At is the client's clock when the reply arrived.
	At                     time.Time
	Host, Version, Process string
	// Uptime is the server's uptime in milliseconds; it going back means
	// the server restarted and its counters with it.
	Uptime int64
	// Pid is the server process's id where serverStatus reports it.
	Pid    int64
	values map[string]int64 // by field name; absent fields are missing
}

// ErrNotStatus is returned for a reply that is not a serverStatus reply.
var ErrNotStatus = errors.New("not a serverStatus reply")

// Parse reduces a serverStatus reply received at at.
func Parse(doc bson.Raw, at time.Time) (*Status, error) {
	if err := doc.Validate(); err != nil {
		return nil, fmt.Errorf("serverStatus reply: %w", err)
	}
	if _, err := doc.LookupErr("opcounters"); err != nil {
		if _, e2 := doc.LookupErr("uptime"); e2 != nil {
			return nil, ErrNotStatus
		}
	}
	s := &Status{At: at, values: make(map[string]int64, len(fields))}
	s.Host, _ = doc.Lookup("host").StringValueOK()
	s.Version, _ = doc.Lookup("version").StringValueOK()
	s.Process, _ = doc.Lookup("process").StringValueOK()
	s.Uptime, _ = doc.Lookup("uptimeMillis").AsInt64OK()
	s.Pid, _ = doc.Lookup("pid").AsInt64OK()
	for _, f := range fields {
		for _, path := range f.paths {
			if v, ok := number(doc, path); ok {
				s.values[f.name] = v
				break
			}
		}
	}
	return s, nil
}

// number reads an integer or double at path; ok is false when it is absent
// or not a number.
func number(doc bson.Raw, path []string) (int64, bool) {
	v, err := doc.LookupErr(path...)
	if err != nil || !v.IsNumber() {
		return 0, false
	}
	return v.AsInt64OK()
}

// Value returns field name's value and whether the server reported it.
func (s *Status) Value(name string) (int64, bool) {
	v, ok := s.values[name]
	return v, ok
}
