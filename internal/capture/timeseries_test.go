package capture

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mongoload/mongoload/internal/capture/source"
)

// A write the server logs on a time-series collection's buckets
// (system.buckets.NAME) is a write of the collection NAME: capture
// never writes the buckets collection into a workload.
func TestBucketsWritesAreTheCollections(t *testing.T) {
	log := `{"t":{"$date":"2024-05-01T10:00:07.000+00:00"},"s":"I","c":"COMMAND","id":51803,"ctx":"conn15","msg":"Slow query","attr":{"type":"command","ns":"iot.system.buckets.readings","command":{"insert":"system.buckets.readings","ordered":true,"$db":"iot"},"ninserted":1,"numYields":0,"reslen":45,"protocol":"op_msg","durationMillis":105}}
{"t":{"$date":"2024-05-01T10:00:08.000+00:00"},"s":"I","c":"WRITE","id":51803,"ctx":"conn15","msg":"Slow query","attr":{"type":"update","ns":"iot.system.buckets.readings","command":{"q":{"_id":1},"u":{"$set":{"control.closed":true}},"multi":false,"upsert":false},"nMatched":1,"nModified":1,"numYields":0,"durationMillis":101}}
`
	p := filepath.Join(t.TempDir(), "mongod.log")
	if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := source.ReadLogs([]string{p}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Ops) != 2 {
		t.Fatalf("%d operations read, want 2 (tally %+v)", len(src.Ops), src.Tally)
	}
	for _, o := range src.Ops {
		if o.DB != "iot" || o.Coll != "readings" {
			t.Errorf("a %s on iot.system.buckets.readings read as one on %s.%s", o.Kind, o.DB, o.Coll)
		}
	}
}
