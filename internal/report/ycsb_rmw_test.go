package report_test

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
	"github.com/mongoload/mongoload/internal/sink"
)

// TestYCSBReadModifyWriteParts: YCSB measures the read and the update
// inside each read-modify-write as READ and UPDATE too (DBWrapper), besides
// READ-MODIFY-WRITE (CoreWorkload). Per interval: 7 reads and a failed one;
// 6 read-modify-writes, whose 6 reads succeed, 4 updates succeed, one finds
// no document (no update, a success) and one's update fails (its error).
// The oracle is that arithmetic; the end-of-run sections and the status
// lines must both follow it.
func TestYCSBReadModifyWriteParts(t *testing.T) {
	names := []string{"READ", "READ-MODIFY-WRITE", "READ-MODIFY-WRITE/read", "READ-MODIFY-WRITE/update"}
	parents := []string{"", "", "READ-MODIFY-WRITE", "READ-MODIFY-WRITE"}
	types := map[string]string{"READ": "findOne", "READ-MODIFY-WRITE": "readModifyWrite",
		"READ-MODIFY-WRITE/read": "findOne", "READ-MODIFY-WRITE/update": "updateOne"}
	const seconds = 2
	rec := metrics.NewRecorder(names, metrics.Options{Shards: 1, Parents: parents})
	rec.Reset(resultstest.T0)
	totals := rec.NewTotals()
	var ivs []*metrics.Interval
	var series []results.IntervalSummary
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	for sec := 1; sec <= seconds; sec++ {
		s := rec.Shard(0)
		for range 7 {
			s.Record(0, ms(1))
		}
		s.RecordError(0, "network")
		for range 5 {
			s.Record(1, ms(4))
			s.Record(2, ms(1.5))
		}
		for range 4 {
			s.Record(3, ms(2))
		}
		s.Record(2, ms(1.5)) // the read of the one whose update failed
		s.RecordOutcome(3, metrics.FailedAttempt+"network", 1)
		s.RecordError(1, "network")
		iv := rec.Interval(resultstest.T0.Add(time.Duration(sec) * time.Second))
		totals.Add(iv)
		ivs = append(ivs, iv)
		series = append(series, results.Summarize(iv, time.Duration(sec)*time.Second))
	}
	res := results.Build(results.RunInfo{OpTypes: types, StartedAt: resultstest.T0, EndedAt: resultstest.T0.Add(seconds * time.Second), Outcome: results.Completed}, totals, series)

	want := map[string][3]int64{ // operations, Return=OK, Return=ERROR
		"READ":              {seconds * (7 + 6), seconds * (7 + 6), seconds * 1},
		"UPDATE":            {seconds * 4, seconds * 4, seconds * 1},
		"READ-MODIFY-WRITE": {seconds * 5, seconds * 5, seconds * 1},
	}
	var b bytes.Buffer
	if err := report.WriteYCSB(&b, res, report.YCSBOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", b.String())
	field := func(sec, what string) int64 {
		m := regexp.MustCompile(`(?m)^\[` + regexp.QuoteMeta(sec) + `\], ` + regexp.QuoteMeta(what) + `, (\d+)$`).FindStringSubmatch(b.String())
		if m == nil {
			return 0
		}
		n, _ := strconv.ParseInt(m[1], 10, 64)
		return n
	}
	for sec, w := range want {
		got := [3]int64{field(sec, "Operations"), field(sec, "Return=OK"), field(sec, "Return=ERROR")}
		if got != w {
			t.Errorf("[%s]: operations, OK, ERROR = %v; want %v", sec, got, w)
		}
	}
	// The parts' own latencies, not their read-modify-write's: READ holds
	// 1ms and 1.5ms, UPDATE 2ms.
	if mx, mn := field("READ", "MaxLatency(us)"), field("READ", "MinLatency(us)"); mn < 990 || mn > 1010 || mx < 1490 || mx > 1510 {
		t.Errorf("[READ] latencies %d..%dµs; want 1000..1500", mn, mx)
	}
	if mx := field("UPDATE", "MaxLatency(us)"); mx < 1990 || mx > 2010 {
		t.Errorf("[UPDATE] max %dµs; want 2000", mx)
	}
	if regexp.MustCompile(`READ-MODIFY-WRITE/`).MatchString(b.String()) {
		t.Error("a part has a section of its own")
	}

	// The status lines count the same, each over its own interval.
	var st bytes.Buffer
	s := sink.NewYCSBStatusSink(&st, sink.YCSBStatusOptions{StatusInterval: time.Second, Location: time.UTC, Types: types})
	for i, iv := range ivs {
		s.Interval(sink.NewSnapshot(iv, time.Duration(i+1)*time.Second))
	}
	if err := s.Close(res); err != nil {
		t.Fatal(err)
	}
	counted := map[string]int64{}
	for _, m := range regexp.MustCompile(`\[([A-Z/-]+): Count=(\d+)`).FindAllStringSubmatch(st.String(), -1) {
		n, _ := strconv.ParseInt(m[2], 10, 64)
		counted[m[1]] += n
	}
	for sec, w := range want {
		if counted[sec] != w[0] {
			t.Errorf("status lines: %s counted %d; want %d\n%s", sec, counted[sec], w[0], st.String())
		}
	}
	if len(counted) != len(want) {
		t.Errorf("status lines show %v; want only %d measurements", counted, len(want))
	}
}
