package telemetry

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

var t0 = time.Date(2026, 11, 23, 4, 29, 33, 0, time.UTC)

// captured reads a reply recorded from the local test server (SecantusDB
// 0.5 over WiredTiger, scripts/testserver): before and after 500
// insertOne, 300 findOne, 300 updateOne, 50 deleteOne and one transaction
// of one insert, and its replSetGetStatus.
func captured(t *testing.T, name string) bson.Raw {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var raw bson.Raw
	if err := bson.UnmarshalExtJSON(b, true, &raw); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return raw
}

func parse(t *testing.T, doc bson.Raw, at time.Time) *Status {
	t.Helper()
	st, err := Parse(doc, at)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// mongodStatus is a serverStatus reply shaped like MongoDB 8.0's, trimmed
// to the fields mongoload reads, with the ones the test server lacks:
// execution tickets under queues and CPU times in extra_info. Built by
// hand, not captured: no mongod runs on these machines.
func mongodStatus(uptime, ops, cpuUs int64) bson.Raw {
	doc := bson.D{
		{Key: "host", Value: "db1:27017"}, {Key: "version", Value: "8.0.4"}, {Key: "process", Value: "mongod"},
		{Key: "uptimeMillis", Value: uptime},
		{Key: "opcounters", Value: bson.D{
			{Key: "insert", Value: ops * 2}, {Key: "query", Value: ops}, {Key: "update", Value: int32(ops)},
			{Key: "delete", Value: ops}, {Key: "getmore", Value: int64(0)}, {Key: "command", Value: ops * 3},
		}},
		{Key: "opLatencies", Value: bson.D{
			{Key: "reads", Value: bson.D{{Key: "latency", Value: ops * 150}, {Key: "ops", Value: ops}}},
			{Key: "writes", Value: bson.D{{Key: "latency", Value: ops * 900}, {Key: "ops", Value: ops * 4}}},
			{Key: "commands", Value: bson.D{{Key: "latency", Value: int64(0)}, {Key: "ops", Value: int64(0)}}},
			{Key: "transactions", Value: bson.D{{Key: "latency", Value: int64(0)}, {Key: "ops", Value: int64(0)}}},
		}},
		{Key: "connections", Value: bson.D{{Key: "current", Value: int32(12)}, {Key: "available", Value: int32(838848)}, {Key: "totalCreated", Value: int32(40)}}},
		{Key: "extra_info", Value: bson.D{{Key: "user_time_us", Value: cpuUs}, {Key: "system_time_us", Value: cpuUs / 4}, {Key: "page_faults", Value: int32(3)}}},
		{Key: "network", Value: bson.D{{Key: "bytesIn", Value: ops * 1000}, {Key: "bytesOut", Value: ops * 4000}}},
		{Key: "queues", Value: bson.D{{Key: "execution", Value: bson.D{
			{Key: "read", Value: bson.D{{Key: "out", Value: int32(3)}, {Key: "available", Value: int32(125)}}},
			{Key: "write", Value: bson.D{{Key: "out", Value: int32(1)}, {Key: "available", Value: int32(127)}}},
		}}}},
		{Key: "transactions", Value: bson.D{{Key: "totalCommitted", Value: ops / 10}, {Key: "totalAborted", Value: int64(1)}}},
		{Key: "wiredTiger", Value: bson.D{{Key: "cache", Value: bson.D{
			{Key: "bytes currently in the cache", Value: float64(220 << 20)},
			{Key: "tracked dirty bytes in the cache", Value: int64(8 << 20)},
			{Key: "maximum bytes configured", Value: int64(256 << 20)},
			{Key: "pages read into cache", Value: ops / 2},
		}}}},
	}
	b, err := bson.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return b
}

// TestParseCaptured protects the field paths against the real server's
// reply: what it reports is read, what it lacks (tickets, CPU times) is
// absent rather than 0.
func TestParseCaptured(t *testing.T) {
	st := parse(t, captured(t, "secantus-serverstatus-2.json"), t0)
	tests := []struct {
		field string
		want  int64
		ok    bool
	}{
		{"opcounters.insert", 543, true},             // a Long
		{"connections.current", 3, true},             // an Int
		{"cache.maxBytes", 268435456, true},          // a key with spaces, under wiredTiger
		{"opLatencies.writes.latency", 121973, true}, // nested three deep
		{"transactions.committed", 11, true},         // renamed from totalCommitted
		{"tickets.readAvailable", 0, false},          // neither queues nor concurrentTransactions
		{"cpu.userSeconds", 0, false},                // extra_info has only page_faults here
		{"connections.totalCreated", 22, true},       // read for the cross-check
	}
	for _, tt := range tests {
		v, ok := st.Value(tt.field)
		if v != tt.want || ok != tt.ok {
			t.Errorf("%s = %d, %v; want %d, %v", tt.field, v, ok, tt.want, tt.ok)
		}
	}
	if st.Host != "127.0.0.1:43577" || st.Version != "8.2.11" || st.Process != "mongod" || st.Uptime != 406913 {
		t.Errorf("host %q version %q process %q uptime %d", st.Host, st.Version, st.Process, st.Uptime)
	}
}

// TestParseRejects: replies that are not serverStatus replies are errors,
// not samples of zeros.
func TestParseRejects(t *testing.T) {
	tests := []struct {
		name string
		doc  bson.Raw
	}{
		{"other command", captured(t, "secantus-replsetgetstatus.json")}, // the wrong reply
		{"truncated", bson.Raw{5, 0, 0}},                                 // damaged bytes
	}
	for _, tt := range tests {
		if _, err := Parse(tt.doc, t0); err == nil {
			t.Errorf("%s: parsed", tt.name)
		}
	}
}
