package cli

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// YCSB's output lines, as its own code writes them (core/.../measurements/
// exporter/TextMeasurementsExporter.java: "[" metric "], " measurement ", "
// value, the value a Java int, long or double; StatusThread.java and
// OneMeasurementHdrHistogram.getSummary for the status line).
var (
	ycsbJavaNumber = `-?\d+(?:\.\d+)?(?:E-?\d+)?|NaN|-?Infinity`
	ycsbLine       = regexp.MustCompile(`^\[([A-Z][A-Z_%-]*)\], ([^,]+), (` + ycsbJavaNumber + `)$`)
	ycsbStatus     = regexp.MustCompile(`^(?:\S+ )?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3} \d+ sec: \d+ operations; (?:\d+(?:\.\d{1,2})? current ops/sec; )?(?:est completion in [^\[]+)?` +
		`(?:\[[A-Z-]+: Count=\d+, Max=\d+, Min=\d+, Avg=\d+(?:\.\d{1,2})?, 50=\d+, 90=\d+, 99=\d+, 99\.9=\d+, 99\.99=\d+\] ?)*$`)
	ycsbOpMeasure = regexp.MustCompile(`^(?:Operations|AverageLatency\(us\)|MinLatency\(us\)|MaxLatency\(us\)|\d+(?:st|nd|rd|th)PercentileLatency\(us\)|Return=[A-Z_]+)$`)
)

// ycsbSummary checks every line of a --format ycsb report against YCSB's
// format, after optional header lines ("Command line: ...", "YCSB Client
// ..."), and returns the values by section and measurement.
func ycsbSummary(t *testing.T, stdout string) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	var order []string
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "[") {
		i++ // header lines
	}
	if i == len(lines) {
		t.Fatalf("no [OVERALL] section:\n%s", stdout)
	}
	for _, l := range lines[i:] {
		m := ycsbLine.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("not a YCSB result line: %q", l)
			continue
		}
		sec, meas := m[1], m[2]
		if sec != "OVERALL" && !ycsbOpMeasure.MatchString(meas) {
			t.Errorf("[%s]: %q is not a measurement YCSB writes", sec, meas)
		}
		if out[sec] == nil {
			out[sec] = map[string]string{}
			order = append(order, sec)
		}
		out[sec][meas] = m[3]
	}
	if len(order) == 0 || order[0] != "OVERALL" || out["OVERALL"]["RunTime(ms)"] == "" || out["OVERALL"]["Throughput(ops/sec)"] == "" {
		t.Errorf("the report does not open with [OVERALL] RunTime(ms) and Throughput(ops/sec):\n%s", stdout)
	}
	if _, err := strconv.ParseInt(out["OVERALL"]["RunTime(ms)"], 10, 64); err != nil {
		t.Errorf("[OVERALL] RunTime(ms) %q is not a long", out["OVERALL"]["RunTime(ms)"])
	}
	return out
}

// ycsbKey is YCSB's CoreWorkload.buildKeyName for hashed inserts with the
// default zeropadding: "user" and Utils.fnvhash64(keynum), with Java's
// wrapping long arithmetic.
func ycsbKey(keynum int64) string {
	h := int64(-3750763034362895579) // 0xCBF29CE484222325
	v := keynum
	for range 8 {
		h ^= v & 0xff
		v >>= 8
		h *= 1099511628211
	}
	if h < 0 {
		h = -h
	}
	return "user" + strconv.FormatInt(h, 10)
}

// TestYCSBWorkloadsBothPhases runs YCSB's own workload files A to F,
// unchanged, through both of YCSB's phases: mongoload load -P loads the
// records ycsb load mongodb loads (the same keys, computed here as YCSB
// computes them, and fields), then mongoload run -P runs the operations
// against them without loading again. The --format ycsb report is checked
// line by line against YCSB's format, its counts against the operation
// count and against what the collection holds afterwards.
func TestYCSBWorkloadsBothPhases(t *testing.T) {
	uri := testserver.URI(t)
	cl, err := mongodb.Connect(context.Background(), config.Connection{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	sections := map[string][]string{
		"a": {"READ", "UPDATE"}, "b": {"READ", "UPDATE"}, "c": {"READ"}, "d": {"READ", "INSERT"},
		"e": {"SCAN", "INSERT"}, "f": {"READ", "READ-MODIFY-WRITE", "UPDATE"},
	}
	for _, w := range []string{"a", "b", "c", "d", "e", "f"} {
		t.Run("workload"+w, func(t *testing.T) {
			file := filepath.Join("..", "ycsb", "testdata", "workload"+w)
			db := fmt.Sprintf("ml_ycsb_%s_%d", w, time.Now().UnixNano()%1e6)
			url := "mongodb.url=" + strings.Replace(uri, "/?", "/"+db+"?", 1)
			if !strings.Contains(url, db) {
				t.Fatalf("cannot put a database into %s", uri)
			}
			code, stdout, stderr := runCLI(t, context.Background(), nil, "load", "-P", file, "-p", url)
			if code != 0 {
				t.Fatalf("load: exit %d\n%s\n%s", code, stdout, stderr)
			}
			// The records are YCSB's: keys user<fnvhash64(0..999)>, ten fields.
			raw, err := cl.Command(context.Background(), db, bson.D{{Key: "find", Value: "usertable"}, {Key: "batchSize", Value: 2000},
				{Key: "projection", Value: bson.D{{Key: "field0", Value: 0}, {Key: "field1", Value: 0}, {Key: "field2", Value: 0}, {Key: "field3", Value: 0}, {Key: "field4", Value: 0}, {Key: "field5", Value: 0}, {Key: "field6", Value: 0}, {Key: "field7", Value: 0}, {Key: "field8", Value: 0}}}})
			if err != nil {
				t.Fatal(err)
			}
			docs, _ := raw.Lookup("cursor", "firstBatch").Array().Values()
			got := map[string]bool{}
			for _, d := range docs {
				doc := d.Document()
				got[doc.Lookup("_id").StringValue()] = true
				if f := doc.Lookup("field9"); f.Type != bson.TypeBinary && f.Type != bson.TypeString {
					t.Fatalf("a record without field9: %v", doc)
				}
			}
			if len(got) != 1000 {
				t.Fatalf("load wrote %d records; the workload's recordcount is 1000", len(got))
			}
			for k := range int64(1000) {
				if !got[ycsbKey(k)] {
					t.Fatalf("record %d: YCSB's key %s is not in the collection", k, ycsbKey(k))
				}
			}
			out := filepath.Join(t.TempDir(), "r.json")
			code, stdout, stderr = runCLI(t, context.Background(), nil, "run", "-P", file, "-p", url, "--format", "ycsb", "--out", out)
			if code != 0 {
				t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, "already holds 1000 documents") {
				t.Errorf("run loaded again:\n%s", stderr)
			}
			res, err := results.ReadJSON(out)
			if err != nil {
				t.Fatal(err)
			}
			// The oracle, by arithmetic from the mix's operations: each
			// section counts its operation; and, as YCSB's DBWrapper
			// measures them, each read-modify-write's read counts in READ
			// and its update in UPDATE (every record exists: each one
			// found its document and updated it).
			mix, want := map[string]int64{}, map[string]int64{}
			var total int64
			for _, op := range res.MixOperations() {
				mix[op.Name] = op.Count
				total += op.Count
			}
			if total != 1000 {
				t.Errorf("the mix ran %d operations; operationcount is 1000", total)
			}
			for _, sec := range sections[w] {
				want[sec] = mix[sec]
			}
			if rmw := mix["READ-MODIFY-WRITE"]; rmw > 0 {
				want["READ"] += rmw
				want["UPDATE"] += rmw
			}
			sum := ycsbSummary(t, stdout)
			for _, sec := range sections[w] {
				s := sum[sec]
				if s == nil {
					t.Errorf("no [%s] section:\n%s", sec, stdout)
					continue
				}
				n, _ := strconv.ParseInt(s["Operations"], 10, 64)
				if n == 0 || n != want[sec] || s["Return=OK"] != s["Operations"] {
					t.Errorf("[%s]: Operations %s, Return=OK %s; want %d", sec, s["Operations"], s["Return=OK"], want[sec])
				}
			}
			if len(sum) != len(sections[w])+1 { // and [OVERALL]
				t.Errorf("sections %v; want [OVERALL] and %v", slices.Collect(maps.Keys(sum)), sections[w])
			}
			status := 0
			counted := map[string]int64{} // by the status lines, each over its own interval
			for _, l := range strings.Split(stderr, "\n") {
				if regexp.MustCompile(`^(?:\S+ )?\d{4}-\d\d-\d\d `).MatchString(l) {
					status++
					if !ycsbStatus.MatchString(l) {
						t.Errorf("not a YCSB status line: %q", l)
					}
					for _, m := range regexp.MustCompile(`\[([A-Z-]+): Count=(\d+)`).FindAllStringSubmatch(l, -1) {
						n, _ := strconv.ParseInt(m[2], 10, 64)
						counted[m[1]] += n
					}
				}
			}
			if status == 0 {
				t.Errorf("no status line:\n%s", stderr)
			}
			for _, sec := range sections[w] {
				if counted[sec] != want[sec] {
					t.Errorf("the status lines count %d in %s; want %d", counted[sec], sec, want[sec])
				}
			}
			// What the collection holds afterwards is the records and the
			// inserts the report counts.
			inserts, _ := strconv.ParseInt(sum["INSERT"]["Operations"], 10, 64)
			raw, err = cl.Command(context.Background(), db, bson.D{{Key: "count", Value: "usertable"}})
			if err != nil {
				t.Fatal(err)
			}
			if n := raw.Lookup("n").AsInt64(); n != 1000+inserts {
				t.Errorf("the collection holds %d records; 1000 loaded + %d inserted", n, inserts)
			}
		})
	}
}

// TestYCSBLoadOrderedZeroPadded: with insertorder=ordered and zeropadding,
// load -P writes YCSB's keys: "user" and the record number, padded with
// zeros to zeropadding digits (CoreWorkload.buildKeyName).
func TestYCSBLoadOrderedZeroPadded(t *testing.T) {
	uri := testserver.URI(t)
	db := fmt.Sprintf("ml_ycsb_ordered_%d", time.Now().UnixNano()%1e6)
	url := "mongodb.url=" + strings.Replace(uri, "/?", "/"+db+"?", 1)
	file := filepath.Join("..", "ycsb", "testdata", "workloada")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "load", "-P", file, "-p", url, "-p", "recordcount=50", "-p", "insertorder=ordered", "-p", "zeropadding=6")
	if code != 0 {
		t.Fatalf("load: exit %d\n%s\n%s", code, stdout, stderr)
	}
	cl, err := mongodb.Connect(context.Background(), config.Connection{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	raw, err := cl.Command(context.Background(), db, bson.D{{Key: "find", Value: "usertable"}, {Key: "batchSize", Value: 100}, {Key: "projection", Value: bson.D{{Key: "_id", Value: 1}}}})
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := raw.Lookup("cursor", "firstBatch").Array().Values()
	got := map[string]bool{}
	for _, d := range docs {
		got[d.Document().Lookup("_id").StringValue()] = true
	}
	for k := range 50 {
		want := "user" + strings.Repeat("0", max(0, 6-len(strconv.Itoa(k)))) + strconv.Itoa(k)
		if !got[want] {
			t.Errorf("record %d: YCSB's key %s is not in the collection (%d records)", k, want, len(got))
		}
	}
	if len(got) != 50 {
		t.Errorf("%d records; recordcount is 50", len(got))
	}
}
