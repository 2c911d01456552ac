package telemetry

import (
	"encoding/json"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestDelta protects the reduction of two replies to one interval's sample:
// counters become deltas, gauges the later value, averages are latency over
// operations, absent fields stay absent, and a restart yields no counters
// rather than negative ones. Samples are compared as JSON, the form the
// results file carries.
func TestDelta(t *testing.T) {
	ss1, ss2 := captured(t, "secantus-serverstatus-1.json"), captured(t, "secantus-serverstatus-2.json")
	noCache, err := bson.Marshal(bson.D{{Key: "uptimeMillis", Value: int64(5)}, {Key: "opcounters", Value: bson.D{{Key: "insert", Value: int64(7)}}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		prev, cur bson.Raw
		dt        time.Duration
		want      string
		restarted bool
	}{
		// The captured workload: 500+1 inserts, 300 finds and updates, 50
		// deletes; 2 commands (a serverStatus and a commitTransaction); no
		// tickets, CPU or replication on this server.
		{"test server", ss1, ss2, 500 * time.Millisecond,
			`{"t":0,"dt":0.5,"at":"2026-11-23T04:29:33.5Z",` +
				`"opcounters":{"insert":501,"query":300,"update":300,"delete":50,"getmore":0,"command":2},` +
				`"opLatencies":{"reads":{"ops":300,"avgMicros":88.62},"writes":{"ops":851,"avgMicros":117.296},"commands":{"ops":2,"avgMicros":403.5},"transactions":{"ops":1,"avgMicros":401}},` +
				`"connections":{"current":3,"available":0},` +
				`"cache":{"bytesInUse":1350610,"dirtyBytes":1295323,"maxBytes":268435456,"pagesReadIntoCache":0},` +
				`"network":{"bytesIn":578673,"bytesOut":469738},` +
				`"transactions":{"committed":1,"aborted":0}}`, false},
		// A mongod-like reply has tickets and CPU times; an opLatencies
		// class with no operations has no average.
		{"mongod", mongodStatus(1000, 100, 2_000_000), mongodStatus(2000, 150, 2_600_000), time.Second,
			`{"t":0,"dt":1,"at":"2026-11-23T04:29:34Z",` +
				`"opcounters":{"insert":100,"query":50,"update":50,"delete":50,"getmore":0,"command":150},` +
				`"opLatencies":{"reads":{"ops":50,"avgMicros":150},"writes":{"ops":200,"avgMicros":225},"commands":{"ops":0},"transactions":{"ops":0}},` +
				`"connections":{"current":12,"available":838848},` +
				`"cache":{"bytesInUse":230686720,"dirtyBytes":8388608,"maxBytes":268435456,"pagesReadIntoCache":25},` +
				`"tickets":{"readAvailable":125,"writeAvailable":127},` +
				`"network":{"bytesIn":50000,"bytesOut":200000},` +
				`"transactions":{"committed":5,"aborted":0},` +
				`"cpu":{"userSeconds":0.6,"systemSeconds":0.15}}`, false},
		// The server restarted: uptime went back, counters too; gauges stay.
		{"restart", mongodStatus(9000, 150, 2_600_000), mongodStatus(100, 2, 10_000), time.Second,
			`{"t":0,"dt":1,"at":"2026-11-23T04:29:34Z",` +
				`"connections":{"current":12,"available":838848},` +
				`"cache":{"bytesInUse":230686720,"dirtyBytes":8388608,"maxBytes":268435456},` +
				`"tickets":{"readAvailable":125,"writeAvailable":127}}`, true},
		// A reply missing whole sections: only what both replies carry.
		{"sparse", noCache, ss2, time.Second,
			`{"t":0,"dt":1,"at":"2026-11-23T04:29:34Z",` +
				`"opcounters":{"insert":536},` +
				`"connections":{"current":3,"available":0},` +
				`"cache":{"bytesInUse":1350610,"dirtyBytes":1295323,"maxBytes":268435456}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, restarted := Delta(parse(t, tt.prev, t0), parse(t, tt.cur, t0.Add(tt.dt)))
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want || restarted != tt.restarted {
				t.Errorf("got  %s (restarted %v)\nwant %s (restarted %v)", b, restarted, tt.want, tt.restarted)
			}
		})
	}
}

// TestLags protects replication lag: the primary's optime minus each
// secondary's, absent where it cannot be known, and no entries at all
// where there are no secondaries (the test server's one-member set).
func TestLags(t *testing.T) {
	members, err := ParseRepl(captured(t, "secantus-replsetgetstatus.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(members) != 1 || members[0].State != "PRIMARY" || members[0].Optime.IsZero() {
		t.Fatalf("captured members %+v", members)
	}
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	tests := []struct {
		name    string
		members []Member
		want    string
	}{
		{"one-member set", members, "null"}, // lag does not exist
		// two secondaries, one 1.5 s behind; the arbiter has no optime
		{"set", []Member{{"a", "PRIMARY", at(2000)}, {"b", "SECONDARY", at(500)}, {"c", "SECONDARY", at(2000)}, {"d", "ARBITER", time.Time{}}},
			`[{"name":"b","state":"SECONDARY","lagSeconds":1.5},{"name":"c","state":"SECONDARY","lagSeconds":0}]`},
		// during an election there is no primary to measure against
		{"no primary", []Member{{"b", "SECONDARY", at(500)}}, `[{"name":"b","state":"SECONDARY"}]`},
	}
	for _, tt := range tests {
		b, _ := json.Marshal(Lags(tt.members))
		if string(b) != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, b, tt.want)
		}
	}
}
