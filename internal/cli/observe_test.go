package cli

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/common/expfmt"
	pmodel "github.com/prometheus/common/model"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/testserver"
)

// lockedBuffer is a bytes.Buffer safe for the concurrent writes of the
// live sink and the --server-stats sampler, as os.Stderr is.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// observed is a mix that touches every opcounter mongoload predicts.
const observed = `
collections:
  - database: mltest
    name: items
    template:
      k: {$gen: key}
      v: {$gen: int, min: 1, max: 9}
operations:
  - {name: get, type: findOne, weight: 5, filter: {k: {$gen: key}}}
  - {name: bump, type: updateOne, weight: 2, filter: {k: {$gen: key}}, update: {$inc: {v: 1}}}
  - {name: add, type: insertOne, weight: 1}
  - {name: load, type: insertMany, weight: 1, batchSize: 5}
  - {name: sum, type: aggregate, weight: 1, pipeline: [{$match: {v: 3}}, {$limit: 5}]}
`

// runObserved runs args through run.Run, the library every command
// calls, with o's stderr as its log; during is called once the sinks are
// open (the Prometheus address printed), while the engine runs.
func runObserved(t *testing.T, o IO, during func(), args ...string) *results.Result {
	t.Helper()
	fs := newFlags("run", "", o)
	addSettings(fs)
	if err := parse(fs, args, 1); err != nil {
		t.Fatal(err)
	}
	cfg, plan, _, err := resolve(fs.Arg(0), fs, IO{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	opts := run.Options{Log: o.Stderr, Version: Version, OnPhase: func(p run.Phase) {
		if p == run.PhaseWarmup {
			go func() { during(); close(done) }()
		}
	}}
	r, err := run.Run(context.Background(), cfg, plan, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	<-done
	out, err := results.ReadJSON(cfg.Run.Out)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestObserversDuringARun runs a short real workload with every observer
// on, and checks each against the run's own result: Prometheus counters
// scraped over HTTP during the run equal the sum of the intervals
// delivered so far, the interval log holds every operation, the server's
// telemetry has its series, and its counters agree with mongoload's.
func TestObserversDuringARun(t *testing.T) {
	uri := testserver.URI(t)
	dir := t.TempDir()
	hlog, out := filepath.Join(dir, "run.hlog"), filepath.Join(dir, "r.json")
	stderr := &lockedBuffer{}
	o := IO{Stdout: io.Discard, Stderr: stderr, Getenv: func(string) (string, bool) { return "", false }}

	var scrapes []map[string]float64
	scrape := func() {
		// The address is printed before the run starts.
		m := regexp.MustCompile(`http://(\S+)/metrics`).FindStringSubmatch(stderr.String())
		if m == nil {
			t.Errorf("no prometheus address in:\n%s", stderr.String())
			return
		}
		// Scrape until two scrapes saw different, non-empty counts (each
		// is checked against the intervals below), or the run is over.
		var distinct []float64
		for deadline := time.Now().Add(time.Minute); len(distinct) < 2 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			s, ok := scrapeOps(m[1])
			if !ok {
				return // the endpoint stops with the run
			}
			scrapes = append(scrapes, s)
			var n float64
			for _, v := range s {
				n += v
			}
			if n > 0 && !slices.Contains(distinct, n) {
				distinct = append(distinct, n)
			}
		}
	}
	res := runObserved(t, o, scrape, uniqueDB(t, observed), "--uri", uri, "--duration", "3s", "--interval", "500ms",
		"--seed", "300", "--concurrency", "4", "--out", out, "--hdr-log", hlog, "--prometheus", "127.0.0.1:0", "--server-stats")

	// Prometheus: every scrape saw exactly the first k intervals.
	matched := 0
	for _, s := range scrapes {
		k := prefix(res, s)
		if k < 0 {
			t.Errorf("scrape %v is no sum of the first intervals of %v", s, counts(res))
		}
		if k > 0 {
			matched++
		}
	}
	if matched < 2 {
		t.Errorf("only %d of %d scrapes saw intervals", matched, len(scrapes))
	}

	// The interval log holds every successful operation.
	logged := readLog(t, hlog)
	for _, op := range res.Operations {
		if logged[op.Name] != op.Count || op.Count == 0 {
			t.Errorf("%s: %d in the interval log, %d in the result", op.Name, logged[op.Name], op.Count)
		}
	}

	// Server telemetry: a series, and a cross-check.
	srv := res.Server
	if srv == nil || srv.Unavailable != "" || len(srv.Samples) < 5 || srv.CrossCheck == nil {
		t.Fatalf("server telemetry %+v", srv)
	}
	for _, r := range srv.CrossCheck.Rows {
		t.Logf("%-8s %-6s expected %6d own %3d server %6d tolerance %4d %v", r.Counter, r.Status, r.Expected, r.Own, r.Server, r.Tolerance, r.Ops)
		// Another test binary may share the server (make test): more is
		// possible then, fewer never.
		if r.Status == "fewer" {
			t.Errorf("%s: the server counted fewer than mongoload sent", r.Counter)
		}
	}
	if os.Getenv("MONGOLOAD_TEST_URI") == "" && (!srv.CrossCheck.OK || srv.CrossCheck.Model != "per-command") {
		t.Errorf("on a server of its own the cross-check must agree under the test server's counting: %s, ok %v", srv.CrossCheck.Model, srv.CrossCheck.OK)
	}
	if lines := strings.Count(stderr.String(), "] server: "); lines < 5 {
		t.Errorf("%d --server-stats lines:\n%s", lines, stderr.String())
	}
}

// scrapeOps returns mongoload_operations_total by operation.
func scrapeOps(addr string) (map[string]float64, bool) {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return nil, false // the run is over
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(pmodel.LegacyValidation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil || fams["mongoload_operations_total"] == nil {
		return nil, false
	}
	out := map[string]float64{}
	for _, m := range fams["mongoload_operations_total"].Metric {
		for _, l := range m.Label {
			if l.GetName() == "operation" {
				out[l.GetValue()] = m.Counter.GetValue()
			}
		}
	}
	return out, true
}

// prefix finds k such that s equals, for every operation, the sum of the
// first k intervals' counts of res; -1 if there is none.
func prefix(res *results.Result, s map[string]float64) int {
	sums := map[string]float64{}
	for k := 0; k <= len(res.Intervals); k++ {
		if k > 0 {
			for _, o := range res.Intervals[k-1].Ops {
				sums[o.Name] += float64(o.Count)
			}
		}
		same := true
		for _, op := range res.Operations {
			same = same && s[op.Name] == sums[op.Name]
		}
		if same {
			return k
		}
	}
	return -1
}

func counts(res *results.Result) [][]int64 {
	var out [][]int64
	for _, iv := range res.Intervals {
		var row []int64
		for _, o := range iv.Ops {
			row = append(row, o.Count)
		}
		out = append(out, row)
	}
	return out
}

// readLog adds up an interval log's counts per tag with HdrHistogram's reader.
func readLog(t *testing.T, path string) map[string]int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := hdrhistogram.NewHistogramLogReader(f)
	out := map[string]int64{}
	for {
		h, err := rd.NextIntervalHistogram()
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			return out
		}
		out[h.Tag()] += h.TotalCount()
	}
}

// TestObserversRefuseBadOutputs: an interval log that cannot be written and
// an address that cannot be listened on fail before the run, with their
// exit codes; nothing is left listening.
func TestObserversRefuseBadOutputs(t *testing.T) {
	busy, err := newListener()
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unwritable log", []string{"--hdr-log", filepath.Join(t.TempDir(), "no", "run.hlog")}, ExitOutput, "interval log"}, // no such directory
		{"bad address", []string{"--prometheus", "localhost"}, ExitInvalid, "want host:port"},                               // no port: refused with the other settings
		{"address in use", []string{"--prometheus", busy.Addr().String()}, ExitOutput, "address already in use"},            // another process
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"run", writeFile(t, "w.yaml", minimal), "--target", "noop", "--duration", "1s", "--quiet"}, tt.args...)
			code, _, stderr := runCLI(t, context.Background(), nil, args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, want %d with a line mentioning %q:\n%s", code, tt.code, tt.want, stderr)
			}
		})
	}
}

func newListener() (interface {
	Addr() net.Addr
	Close() error
}, error) {
	return net.Listen("tcp", "127.0.0.1:0")
}
