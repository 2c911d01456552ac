package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/capture/source"
)

// realFormats is the folder of real mongod logs and profiler documents
// (../shared/realformats, its README names their sources); the tests
// that read it skip when it is absent.
func realFormats(t *testing.T, sub string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "realformats", sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no real-format corpus at %s", dir)
	}
	return dir
}

// TestRealLogs reads every real mongod log of the corpus: none fails,
// every slow-query line (id 51803, whatever its msg's case) is read and
// either made an operation or counted as skipped with its reason, and the
// kinds of operations its README lists are found.
func TestRealLogs(t *testing.T) {
	dir := realFormats(t, "logs")
	// The operations each file holds, from the corpus's README.
	want := map[string][]string{
		"hatchet_replica_rs1_6.0.14.excerpt.log":            {source.KindInsert, source.KindUpdate, source.KindFind, source.KindCount},
		"hatchet_replica_rs2_6.0.14.excerpt.log":            {source.KindInsert, source.KindFind, source.KindUpdate, source.KindCount},
		"hatchet_sample-mongod_6.0.11.excerpt.log":          {source.KindInsert, source.KindFind, source.KindUpdate, source.KindDelete, source.KindAggregate, source.KindDistinct},
		"pmm_mongolog_5.0.31_many_slow_queries.excerpt.log": {source.KindInsert, source.KindFind, source.KindAggregate, source.KindUpdate, source.KindDelete, source.KindFindAndModify},
		"keyhole_logv2_parser_test.extracted.log":           {source.KindDelete, source.KindFindAndModify, source.KindUpdate},
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) == 0 {
		t.Fatalf("no file in %s", dir)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			src, err := source.ReadLogs([]string{f}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(f)
			if n := strings.Count(string(data), `"id":51803`); src.Tally.Read != n {
				t.Errorf("%d entries read, the file holds %d slow-query lines", src.Tally.Read, n)
			}
			skipped := 0
			for _, m := range []map[string]int{src.Tally.Skipped, src.Tally.Odd, src.Tally.Unsupported} {
				for _, n := range m {
					skipped += n
				}
			}
			if src.Tally.Used+skipped+src.Tally.Truncated+src.Tally.Garbage < src.Tally.Read {
				t.Errorf("%d read, %d used, %d skipped: some dropped silently", src.Tally.Read, src.Tally.Used, skipped)
			}
			kinds := map[string]bool{}
			for _, o := range src.Ops {
				kinds[o.Kind] = true
			}
			for _, k := range want[name] {
				if !kinds[k] {
					t.Errorf("no %s read (read: %v; %s)", k, kinds, src.Tally.LeftOut())
				}
			}
			if want[name] == nil {
				t.Errorf("a new file in the corpus: list the operations its README says it holds")
			}
			// The whole capture: its workload file is written and checked
			// (read back, validated, compiled), whatever the log held.
			res, err := Run(t.Context(), nil, Options{Logs: []string{f}, Now: time.Now})
			if err != nil {
				t.Fatal(err)
			}
			write(t, res.Workload("real"))
		})
	}
}

// TestReadLogsTruncatedBy80: MongoDB 8.0 cuts a long command silently
// (a top-level "truncated" and "size" beside attr, and a partial
// attr.command: here an aggregate whose $match lost its predicate). It is
// counted as truncated and not read as the full scan it looks like; the
// whole finds around it are read.
func TestReadLogsTruncatedBy80(t *testing.T) {
	src, err := source.ReadLogs([]string{"testdata/mongod-8.0-truncated.log"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if src.Tally.Read != 3 || src.Tally.Used != 2 || src.Tally.Truncated != 1 {
		t.Errorf("read %d, used %d, truncated %d; want 3, 2 and 1", src.Tally.Read, src.Tally.Used, src.Tally.Truncated)
	}
	for _, o := range src.Ops {
		if o.Kind != source.KindFind {
			t.Errorf("a %s was read: the truncated aggregate must not be", o.Kind)
		}
	}
	if s := src.Tally.LeftOut(); !strings.Contains(s, "1 truncated") {
		t.Errorf("the summary does not say it: %s", s)
	}
}
