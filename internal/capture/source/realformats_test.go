package source

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// realFormats is the folder of real mongod logs and profiler documents
// (../shared/realformats, its README names their sources); the tests
// that read it skip when it is absent.
func realFormats(t *testing.T, sub string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "..", "shared", "realformats", sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no real-format corpus at %s", dir)
	}
	return dir
}

// TestRealProfilerDocuments reads every real system.profile document of
// the corpus (pretty-printed by the legacy shell, counters as $numberLong,
// legacy $binary, ts a string) into the operation its file name says it
// is; commands a workload cannot replay are counted with their reason.
// Their namespace is admin.test_db.coll, which a capture leaves out (the
// admin database), so the entry reader is called directly.
func TestRealProfilerDocuments(t *testing.T) {
	dir := realFormats(t, "profiler/percona-toolkit")
	// The file's operation (its name up to "_mongo") -> what it is read as.
	want := map[string]string{
		"aggregate": KindAggregate, "count": KindCount, "count_with_query": KindCount, "distinct": KindDistinct,
		"delete": KindDelete, "delete_all": KindDelete, "find": KindFind, "find_andrii": KindFind, "find_empty": KindFind,
		"find_with_sort": KindFind, "findandmodify": KindFindAndModify, "getmore": KindFind, "insert": KindInsert, "update": KindUpdate,
		"explain": "skipped", "geonear": "skipped", "group": "skipped", // geonear_* and group_* hold a createIndexes
		"mapreduce": "unsupported",
		// In 4.0 the files hold what the README does not say: an insert,
		// and a real group command (removed in 4.2: unsupported).
		"geonear_mongo_4.0.json": KindInsert, "group_mongo_4.0.json": "unsupported",
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) == 0 {
		t.Fatalf("no file in %s", dir)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			op, _, _ := strings.Cut(name, "_mongo")
			fh, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			p := &Profiled{Emit: func(Op) bool { return true }}
			if err := p.ReadDocuments(fh, name); err != nil {
				t.Fatal(err)
			}
			if p.Tally.Read != 1 || p.Tally.Skipped["the admin database"] != 1 {
				t.Fatalf("read %d documents (%s), want the one, left out as admin's", p.Tally.Read, p.Tally.LeftOut())
			}
			var tally Tally
			raw, _ := os.ReadFile(f)
			var d bson.Raw
			if err := bson.UnmarshalExtJSON(raw, false, &d); err != nil {
				t.Fatal(err)
			}
			e := profilerEntry(d)
			o, ok := e.read(&tally)
			got := o.Kind
			switch {
			case !ok && len(tally.Unsupported) > 0:
				got = "unsupported"
			case !ok:
				got = "skipped"
			}
			w, named := want[name]
			if !named {
				w = want[op]
			}
			if got != w {
				t.Errorf("read as %q (%s), want %q", got, tally.LeftOut(), w)
			}
			if ok && (o.DB != "admin" || o.Coll != "test_db.coll") {
				t.Errorf("namespace %s.%s, want admin and test_db.coll (split on the first dot)", o.DB, o.Coll)
			}
		})
	}
}
