package capture

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/capture/source"
)

// shapeCounts is executions and documents returned by shape kind and
// filter, for assertions that do not depend on the shape text's details.
func shapeCounts(t *testing.T, ops []source.Op) map[string][2]float64 {
	t.Helper()
	s := NewShapes(1)
	for _, o := range ops {
		s.Add(o)
	}
	out := map[string][2]float64{}
	for _, sh := range s.Order {
		k := sh.Kind + " " + strings.Join(sh.HoleOrder, ",")
		c := out[k]
		out[k] = [2]float64{c[0] + sh.Count, c[1] + sh.Returned}
	}
	return out
}

// gzipCopy writes src gzipped into dir, as logrotate leaves mongod.log.1.gz.
func gzipCopy(t *testing.T, src, dir string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	p := filepath.Join(dir, filepath.Base(src)+".gz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReadLogs reads mongod's JSON log with the oddities real ones carry:
// lines that are not slow queries, a getMore whose find is in an older
// (rotated, gzipped) file given after the newer one, an update logged both
// as its statement and as its command, a $truncated command, mapReduce and
// $where, an admin command, a line that is not JSON and a cut last line.
func TestReadLogs(t *testing.T) {
	older := gzipCopy(t, "testdata/mongod.log.1", t.TempDir())
	src, err := source.ReadLogs([]string{"testdata/mongod.log", older}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := shapeCounts(t, src.Ops)
	want := map[string][2]float64{
		"find filter.customer_id":                        {3, 6},   // 42, 77 and NumberLong(5): one shape, ?number
		"find filter.status":                             {2, 301}, // paid (101); shipped (101, and its getMore's 99)
		"update filter._id,update.$set.status":           {1, 0},   // the statement; the command beside it is not counted again
		"insert ":                                        {1, 0},
		"aggregate pipeline.0.$match.status":             {1, 40},
		"distinct filter.customer_id.$gte":               {1, 0},
		"count filter.status":                            {1, 0},
		"findAndModify filter.status,update.$set.status": {1, 0},
		"delete filter.status":                           {1, 0},
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %v (executions, returned), want %v", k, got[k], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("shapes %v, want %d of them", got, len(want))
	}
	tl := src.Tally
	if tl.Garbage != 2 || tl.Truncated != 1 || tl.Unsupported["mapReduce"] != 1 || tl.Unsupported["$where"] != 1 {
		t.Errorf("garbage %d (want 2), truncated %d (want 1), unsupported %v (want mapReduce and $where once)", tl.Garbage, tl.Truncated, tl.Unsupported)
	}
	if tl.Skipped["the admin database"] != 1 || tl.Skipped["update/delete commands (their statements were read)"] != 1 {
		t.Errorf("skipped %v", tl.Skipped)
	}
	if src.Complete {
		t.Error("a slow-query log was taken for a complete record: it cannot give a rate")
	}
	if want := "2024-05-01T09:59:58Z"; src.From.Format("2006-01-02T15:04:05Z") != want {
		t.Errorf("window starts %v, want %s (the older file's first line)", src.From, want)
	}
}

// TestReadLogsInsertBatch: an insert command of ten documents is one
// execution of an insertMany of ten.
func TestReadLogsInsertBatch(t *testing.T) {
	src, err := source.ReadLogs([]string{"testdata/mongod.log"}, []string{"shop"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := NewShapes(1)
	for _, o := range src.Ops {
		s.Add(o)
	}
	for _, sh := range s.Order {
		if sh.Kind == source.KindInsert {
			op, _ := (&builder{sh: sh}).Operation("ins", 1)
			if op.Type != "insertMany" || op.BatchSize != 10 {
				t.Errorf("insert of 10 documents became %s of %d", op.Type, op.BatchSize)
			}
			return
		}
	}
	t.Fatal("no insert shape")
}

// TestReadLogsNothingParses: a file of garbage is an error that says what
// was expected; a file with garbage and one good line is not.
func TestReadLogsNothingParses(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.log")
	os.WriteFile(bad, []byte("2024-05-01 plain text log\nanother line\n"), 0o644)
	if _, err := source.ReadLogs([]string{bad}, nil, nil); err == nil || !strings.Contains(err.Error(), "no line is a mongod JSON log entry (2 lines read)") {
		t.Errorf("err = %v", err)
	}
	if _, err := source.ReadLogs([]string{filepath.Join(dir, "missing.log")}, nil, nil); err == nil || !strings.Contains(err.Error(), "missing.log") {
		t.Errorf("a missing file: err = %v", err)
	}
}
