package telemetry

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
)

func n(v int64) *int64 { return &v }

// mix is a workload touching every counter: 1,000 finds, 100 insertMany of
// 10 documents, 50 aggregations, 200 updates, 40 deletes, 30
// findOneAndUpdate.
var mix = []ClientOp{
	{Name: "find", Type: "findOne", Count: 1000},
	{Name: "load", Type: "insertMany", Count: 100, BatchSize: 10},
	{Name: "report", Type: "aggregate", Count: 50},
	{Name: "bump", Type: "updateOne", Count: 200},
	{Name: "drop", Type: "deleteOne", Count: 40},
	{Name: "claim", Type: "findOneAndUpdate", Count: 30},
}

// TestCrossCheck protects the comparison of the server's counters with the
// client's operations: the counting model is recognized, known variations
// and mongoload's own commands are not flagged, real mismatches are.
func TestCrossCheck(t *testing.T) {
	const own = 12
	tests := []struct {
		name   string
		ops    []ClientOp
		server results.Opcounters
		model  string
		status string // each row's status, in counters order: query insert update delete command getmore
	}{
		// MongoDB's counting: insertMany counts its documents, aggregate is a command.
		{"mongod", mix, results.Opcounters{Query: n(1000), Insert: n(1000), Update: n(200), Delete: n(40), Command: n(own + 50 + 30), Getmore: n(3)},
			"mongod", "ok ok ok ok ok info"},
		// The test server's: one insert per command, aggregate is a query.
		{"per-command", mix, results.Opcounters{Query: n(1050), Insert: n(100), Update: n(200), Delete: n(40), Command: n(own + 30), Getmore: n(0)},
			"per-command", "ok ok ok ok ok info"},
		// Another client reads from the same server meanwhile.
		{"other clients", mix, results.Opcounters{Query: n(6000), Insert: n(1000), Update: n(200), Delete: n(40), Command: n(own + 80), Getmore: n(0)},
			"mongod", "more ok ok ok ok info"},
		// Deletes the client counted but the server did not see.
		{"lost deletes", mix, results.Opcounters{Query: n(1000), Insert: n(1000), Update: n(200), Delete: n(4), Command: n(own + 80), Getmore: n(0)},
			"mongod", "ok ok ok fewer ok info"},
		// Failed inserts (duplicate keys) may or may not be counted.
		{"failed inserts", []ClientOp{{Name: "ins", Type: "insertOne", Count: 100, Errors: 20}}, results.Opcounters{Insert: n(120), Command: n(own)},
			"mongod", "ok ok"},
		// YCSB's read-modify-write is a query and an update.
		{"read-modify-write", []ClientOp{{Name: "rmw", Type: "readModifyWrite", Count: 100}}, results.Opcounters{Query: n(100), Update: n(100), Command: n(own)},
			"mongod", "ok ok ok"},
		// A server that reports only some counters gets rows only for those.
		{"partial opcounters", mix, results.Opcounters{Update: n(200)}, "mongod", "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cc, notes := CrossCheck(CheckInput{Ops: tt.ops, Server: tt.server, Own: own, InFlight: 4, Duration: 10 * time.Second})
			var got []string
			for _, r := range cc.Rows {
				got = append(got, r.Status)
			}
			if cc.Model != tt.model || strings.Join(got, " ") != tt.status {
				t.Errorf("model %s, statuses %v; want %s, %s\nrows %+v", cc.Model, got, tt.model, tt.status, cc.Rows)
			}
			if want := !strings.Contains(tt.status, "more") && !strings.Contains(tt.status, "fewer"); cc.OK != want {
				t.Errorf("OK = %v with statuses %v", cc.OK, got)
			}
			if len(notes) > 0 {
				t.Errorf("notes %v", notes)
			}
		})
	}
}

// TestCrossCheckTolerance protects the tolerance arithmetic: in-flight
// operations at both edges, failed operations, 1%, the operations finished
// before the first sample, and for commands heartbeats and handshakes.
func TestCrossCheckTolerance(t *testing.T) {
	in := CheckInput{
		Ops:      []ClientOp{{Name: "load", Type: "insertMany", Count: 1000, Errors: 3, BatchSize: 10}, {Name: "f", Type: "find", Count: 50}},
		Server:   results.Opcounters{Insert: n(10_000), Command: n(0), Query: n(50)},
		InFlight: 8, Duration: 20 * time.Second, StartLag: 100 * time.Millisecond, NewConnections: 2,
	}
	cc, _ := CrossCheck(in)
	got := map[string]int64{}
	for _, r := range cc.Rows {
		got[r.Counter] = r.Tolerance
	}
	// insert: 2×8 in flight × 10 docs + 3×10 failed + 1% of 10,000 + 10,000×0.1/20
	// command: heartbeats 4×(2+1) + 3 per new connection
	// query: 2×8 + 0 + 0 + ceil(50×0.1/20)
	want := map[string]int64{"insert": 160 + 30 + 100 + 50, "command": 12 + 6, "query": 16 + 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("tolerances %v, want %v", got, want)
	}
}

// TestCrossCheckUnknownType: an operation type no model maps is said to be
// left out, not silently counted somewhere.
func TestCrossCheckUnknownType(t *testing.T) {
	_, notes := CrossCheck(CheckInput{Ops: []ClientOp{{Name: "scan", Type: "bulkWrite", Count: 5}}, Server: results.Opcounters{Query: n(0)}})
	if len(notes) != 1 || !strings.Contains(notes[0], "scan (bulkWrite)") {
		t.Errorf("notes %v", notes)
	}
}
