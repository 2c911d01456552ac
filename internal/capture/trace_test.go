package capture

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/trace"
)

// TestFromALog: each Slow query line of a mongod log becomes an entry that
// started at its t less its durationMillis, on its connection (ctx), with
// its appName and its command; the oracle is the log read as plain JSON.
func TestFromALog(t *testing.T) {
	const path = "testdata/mongod.log"
	type line struct {
		T struct {
			Date time.Time `json:"$date"`
		} `json:"t"`
		Ctx  string `json:"ctx"`
		Msg  string `json:"msg"`
		Attr struct {
			Ms  int64  `json:"durationMillis"`
			App string `json:"appName"`
		} `json:"attr"`
	}
	want := map[string]line{} // start|conn -> line
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l line
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "Slow query" {
			start := l.T.Date.Add(-time.Duration(l.Attr.Ms) * time.Millisecond).UTC()
			want[start.Format(time.RFC3339Nano)+"|"+l.Ctx] = l
		}
	}
	var got []trace.Entry
	if _, err := source.ReadLogs([]string{path}, nil, func(o source.Op) bool {
		if e, ok := traceEntry(&o); ok {
			got = append(got, e)
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatal("no entry from the log")
	}
	for _, e := range got {
		l, ok := want[e.Start.UTC().Format(time.RFC3339Nano)+"|"+e.Conn]
		if !ok {
			t.Errorf("entry %s %s on %q at %v: no Slow query line started then on that connection", e.Op, e.NS, e.Conn, e.Start)
			continue
		}
		if e.Dur != time.Duration(l.Attr.Ms)*time.Millisecond || e.App != l.Attr.App || len(e.Cmd) == 0 || e.Shape == "" {
			t.Errorf("entry %+v, from the line %+v", e, l)
		}
	}
}
