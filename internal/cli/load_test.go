package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/testserver"
)

// keyed is a workload whose key field has a unique index: a duplicate key
// would fail the load.
const keyed = `
collections:
  - database: mltest
    name: items
    template:
      _id: {$gen: objectId}
      k: {$gen: key}
      name: {$gen: name}
      tags: {$gen: array, min: 1, max: 3, of: {$gen: word}}
    indexes:
      - keys: {k: 1}
        unique: true
      - keys: {name: 1}
operations:
  - {name: get, type: findOne, weight: 1, filter: {k: {$gen: key}}}
`

// TestLoadFlagErrors: bad load flags are one clear line naming the flag and
// the fix, with the invalid-value exit code, before any connection.
func TestLoadFlagErrors(t *testing.T) {
	w := writeFile(t, "w.yaml", keyed)
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		// Nothing to load says how to say it.
		{"no target", nil, nil, "--documents: say how many documents to load"},
		// Documents and size are two ways to say one thing.
		{"both", []string{"--documents", "10", "--size", "1GB"}, nil, "--size: give --documents or --size, not both"},
		// A size needs a unit it knows.
		{"bad size", []string{"--size", "5 parsecs"}, nil, `--size: "5 parsecs" is not a size`},
		// The environment sets load flags too, and is named when wrong.
		{"env", nil, map[string]string{"MONGOLOAD_DOCUMENTS": "many"}, `MONGOLOAD_DOCUMENTS: "many" is not a number: give a number of documents`},
		// Numbers are finite and in range (issue 30).
		{"documents NaN", []string{"--documents", "NaN"}, nil, `--documents: "NaN": NaN is not a number`},
		{"documents huge", []string{"--documents", "1e300"}, nil, `--documents: "1e300": 1e+300 is out of range`},
		{"documents negative", []string{"--documents", "-1"}, nil, `--documents: "-1": -1 is out of range`},
		{"indexes", []string{"--documents", "10", "--indexes", "afterwards"}, nil, `"afterwards" must be before or after (did you mean "after"?)`},
		// Unacknowledged inserts cannot be resumed.
		{"w0", []string{"--documents", "10", "--load-write-concern", "0"}, nil, "--load-write-concern: w 0 cannot be used for a load"},
		{"workers", []string{"--documents", "10", "--workers", "0"}, nil, `--workers: "0": 0 is out of range: give a whole number from 1 to 100,000`},
		{"batch-size", []string{"--documents", "10", "--batch-size", "100001"}, nil, `--batch-size: "100001": 100001 is out of range`},
		// Each partition dropping the collection would lose the others' work.
		{"partition drop", []string{"--documents", "10", "--partition", "1/3", "--drop"}, nil, "--drop: with --partition each process would drop"},
		{"partition range", []string{"--documents", "10", "--partition", "3/3"}, nil, `partition "3/3"`},
		{"collection", []string{"--documents", "10", "--collection", "itmes"}, nil, `no collection "itmes" (it has items) (did you mean "items"?)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"load", w, "--uri", "mongodb://127.0.0.1:1"}, tt.args...)
			code, _, stderr := runCLI(t, context.Background(), tt.env, args...)
			if code != ExitInvalid || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, ExitInvalid, tt.want)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("more than one line: %q", stderr)
			}
		})
	}
}

var loadedLine = regexp.MustCompile(`loaded (\S+)(?: \(partition \d+/\d+\))?: ([\d,]+) documents .* in \S+: ([\d,]+) docs/s, [\d.]+ MB/s, client CPU [\d.]+ µs/doc`)

func atoiCommas(s string) int64 {
	n, _ := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	return n
}

// TestLoadCommand loads, reports the achieved rate and CPU per document,
// and finds nothing to do the second time.
func TestLoadCommand(t *testing.T) {
	uri := testserver.URI(t)
	w := uniqueDB(t, keyed)
	code, stdout, stderr := runCLI(t, context.Background(), nil, "load", w, "--uri", uri, "--documents", "3000", "--batch-size", "250", "--workers", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m := loadedLine.FindStringSubmatch(stdout)
	if m == nil || atoiCommas(m[2]) != 3000 {
		t.Fatalf("no result line with 3,000 documents:\n%s", stdout)
	}
	code, stdout, _ = runCLI(t, context.Background(), nil, "load", w, "--uri", uri, "--documents", "3000")
	if code != 0 || !strings.Contains(stdout, "already holds 3,000 documents") {
		t.Fatalf("second load: exit %d\n%s", code, stdout)
	}
	// The run that follows reads the loaded keys.
	out := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr = runCLI(t, context.Background(), nil, "run", w, "--uri", uri, "--operations", "300", "--duration", "0", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("run after load: exit %d: %s", code, stderr)
	}
	res, _ := results.ReadJSON(out)
	if res == nil || res.Totals.Operations != 300 || res.Totals.Errors != 0 {
		t.Fatalf("run after load: %+v", res)
	}
}

// TestLoadInterruptAndResume: Ctrl-C in the middle of a load exits with the
// interrupted code and says how to continue; a plain rerun refuses to mix a
// new load with the interrupted one; --resume finishes it, the earlier and
// the new documents adding up to the target.
func TestLoadInterruptAndResume(t *testing.T) {
	uri := testserver.URI(t)
	db := uniqueName(t)
	w := writeFile(t, "w.yaml", strings.ReplaceAll(keyed, "database: mltest", "database: "+db))
	const n = 200_000 // at least 4s for one worker with small batches
	ctx, cancel := context.WithCancel(context.Background())
	load := runInBackground(ctx, "load", w, "--uri", uri, "--documents", strconv.Itoa(n), "--workers", "1", "--batch-size", "100")
	d := openDB(t, uri)
	testserver.Await(t, time.Minute, "the load's first documents on the server", func() bool { return d.count(db, "items") >= 1000 })
	cancel() // Ctrl-C with the load provably under way
	code, stdout, stderr := load.wait()
	if code != ExitInterrupted || !strings.Contains(stderr, "--resume") {
		t.Fatalf("interrupted load: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, _, stderr = runCLI(t, context.Background(), nil, "load", w, "--uri", uri, "--documents", strconv.Itoa(n))
	if code != ExitSetup || !strings.Contains(stderr, "pass --resume") {
		t.Fatalf("load over an interrupted one: exit %d: %s", code, stderr)
	}
	code, stdout, stderr = runCLI(t, context.Background(), nil, "load", w, "--uri", uri, "--resume")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	m := loadedLine.FindStringSubmatch(stdout)
	before := regexp.MustCompile(`([\d,]+) loaded before`).FindStringSubmatch(stdout)
	dups := regexp.MustCompile(`([\d,]+) of the redone keys were already there`).FindStringSubmatch(stdout)
	if m == nil || before == nil {
		t.Fatalf("resume output:\n%s", stdout)
	}
	total := atoiCommas(m[2]) + atoiCommas(before[1])
	if dups != nil {
		total += atoiCommas(dups[1])
	}
	if total != n {
		t.Fatalf("%d written now + %s before = %d, want %d:\n%s", atoiCommas(m[2]), before[1], total, n, stdout)
	}
}

// TestLoadPartitionsAndIndexesAfter: three processes fill one collection,
// one partition each, at the same time; the indexes are built once, by the
// last to finish.
func TestLoadPartitionsAndIndexesAfter(t *testing.T) {
	uri := testserver.URI(t)
	w := uniqueDB(t, keyed)
	if code, _, stderr := runCLI(t, context.Background(), nil, "load", w, "--uri", uri, "--documents", "0", "--drop", "--indexes", "after"); code != 0 {
		t.Fatalf("setup: exit %d: %s", code, stderr)
	}
	var wg sync.WaitGroup
	outs := make([]string, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, stdout, stderr := runCLI(t, context.Background(), nil, "load", w, "--uri", uri, "--documents", "9000",
				"--partition", fmt.Sprintf("%d/3", i), "--indexes", "after", "--workers", "2")
			if code != 0 {
				t.Errorf("partition %d: exit %d: %s", i, code, stderr)
			}
			outs[i] = stdout
		}()
	}
	wg.Wait()
	all := strings.Join(outs, "\n")
	if strings.Count(all, "built the indexes of") != 1 {
		t.Fatalf("indexes built %d times, want once:\n%s", strings.Count(all, "built the indexes of"), all)
	}
	var written int64
	for _, m := range loadedLine.FindAllStringSubmatch(all, -1) {
		written += atoiCommas(m[2])
	}
	if written != 9000 {
		t.Fatalf("partitions wrote %d documents, want 9,000:\n%s", written, all)
	}
	code, stdout, _ := runCLI(t, context.Background(), nil, "load", w, "--uri", uri, "--documents", "9000")
	if code != 0 || !strings.Contains(stdout, "already holds 9,000") {
		t.Fatalf("after the partitions: exit %d\n%s", code, stdout)
	}
}

// TestLoadSize: --size becomes a document count from the average size.
func TestLoadSize(t *testing.T) {
	uri := testserver.URI(t)
	w := uniqueDB(t, keyed)
	code, stdout, stderr := runCLI(t, context.Background(), nil, "load", w, "--uri", uri, "--size", "2MB")
	if code != 0 || !strings.Contains(stderr, "2.0 MB of documents averaging") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	m := loadedLine.FindStringSubmatch(stdout)
	bytesRe := regexp.MustCompile(`\(([\d.]+) MB of BSON\)`).FindStringSubmatch(stdout)
	if m == nil || bytesRe == nil {
		t.Fatalf("output:\n%s", stdout)
	}
	if mb, _ := strconv.ParseFloat(bytesRe[1], 64); mb < 1.8 || mb > 2.3 {
		t.Fatalf("loaded %s MB for --size 2MB", bytesRe[1])
	}
}

// TestProgressLine: a load's progress line (sink.ProgressBar draws it).
func TestProgressLine(t *testing.T) {
	p := loader.Progress{Collection: "db.c", Total: 1000, Already: 250, Written: 250, Bytes: 1e6, Elapsed: time.Second}
	text := run.ProgressLine(p)
	for _, want := range []string{"load db.c [############............]  50.0%", "500/1,000", "250 docs/s", "1.0 MB/s", "ETA 2s"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q lacks %q", text, want)
		}
	}
}

func TestCommasAndDurations(t *testing.T) {
	tests := []struct{ got, want string }{
		{results.Thousands(0), "0"},                             // no separator for small numbers
		{results.Thousands(1000), "1,000"},                      // one at each thousand
		{results.Thousands(-1234567), "-1,234,567"},             // the sign stays in front
		{results.Rounded(850 * time.Millisecond), "850ms"},      // under a second: milliseconds
		{results.Rounded(42 * time.Second), "42s"},              // under a minute: seconds
		{results.Rounded(500 * time.Second), "8m20s"},           // under an hour: to the second
		{results.Rounded(2*time.Hour + 5*time.Minute), "2h05m"}, // hours: to the minute
		{run.DecimalBytes(512), "512 B"},                        // bytes below a kilobyte
		{run.DecimalBytes(20_100_000), "20.1 MB"},               // decimal units, one decimal
		{run.DecimalBytes(1_300_000_000), "1.3 GB"},             // up to TB
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
