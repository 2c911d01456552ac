package dashboard

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

func TestListenAddr(t *testing.T) {
	tests := []struct {
		in, want string
		bad      bool
	}{
		{in: "8080", want: "127.0.0.1:8080"},               // a bare port listens on loopback
		{in: ":8080", want: "127.0.0.1:8080"},              // so does :port
		{in: "0", want: "127.0.0.1:0"},                     // any free port, on loopback
		{in: "0.0.0.0:8080", want: "0.0.0.0:8080"},         // another host only when named
		{in: "[::1]:9000", want: "[::1]:9000"},             // IPv6 loopback
		{in: "localhost:80", want: "localhost:80"},         // a name is kept
		{in: "", bad: true},                                // nothing
		{in: "host", bad: true},                            // no port
		{in: "127.0.0.1:http", bad: true},                  // a service name is not a port
		{in: "127.0.0.1:70000", bad: true},                 // out of range
		{in: " 9090 ", want: "127.0.0.1:9090"},             // spaces from an environment variable
		{in: "example.com:8080", want: "example.com:8080"}, // reachable from elsewhere, as asked
	}
	for _, tt := range tests {
		got, err := ListenAddr(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ListenAddr(%q) = %q, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ListenAddr(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestLoopback(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:80", true},   // IPv4 loopback
		{"[::1]:80", true},       // IPv6 loopback
		{"localhost:80", true},   // the name
		{"0.0.0.0:80", false},    // every interface
		{"10.1.2.3:80", false},   // a private address is still another machine's reach
		{"nonsense", false},      // not host:port
		{"example.com:1", false}, // a name other than localhost
	}
	for _, tt := range tests {
		if got := Loopback(tt.addr); got != tt.want {
			t.Errorf("Loopback(%q) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}

// start serves a dashboard on a free loopback port for one test.
func start(t *testing.T, html func(io.Writer, *results.Result, *results.Sweep) error) *Server {
	t.Helper()
	s, err := Start(Options{Addr: "127.0.0.1:0", Command: "run", Workload: results.Workload{Name: "w"}, HTMLReport: html})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// interval makes one interval of two operations, one of them a
// transaction's step (left out of the totals).
func interval(start time.Time) *metrics.Interval {
	iv := &metrics.Interval{Start: start, End: start.Add(time.Second)}
	for _, op := range [][2]string{{"get", ""}, {"step", "txn"}} { // name, parent, as the recorder sets them
		h := metrics.NewHistogram()
		for v := int64(1000); v <= 10000; v += 1000 {
			_ = h.RecordValue(v)
		}
		iv.Ops = append(iv.Ops, metrics.OpInterval{Name: op[0], Parent: op[1], Latency: h, Errors: map[string]int64{"timeout": 1}})
	}
	cpu := 500 * time.Millisecond
	iv.ClientCPU = &cpu
	return iv
}

// TestRunFeedsTheAPI: a measured run's intervals and result reach every
// endpoint, and the downloads appear only once the run is over.
func TestRunFeedsTheAPI(t *testing.T) {
	s := start(t, func(w io.Writer, res *results.Result, _ *results.Sweep) error {
		_, err := io.WriteString(w, "<html>report of "+res.Workload.Name+"</html>")
		return err
	})
	base := s.URL()
	if code, body := get(t, base); code != 200 || !strings.Contains(body, "/assets/dashboard.js") {
		t.Fatalf("GET / = %d %.200s", code, body)
	}
	for _, a := range []string{"assets/dashboard.js", "assets/dashboard.css", "assets/uPlot.min.js", "assets/uPlot.min.css", "assets/LICENSE-uPlot"} {
		if code, body := get(t, base+a); code != 200 || len(body) < 100 {
			t.Errorf("GET /%s = %d, %d bytes", a, code, len(body))
		}
	}
	step := s.StartRun(Run{Load: results.LoadModel{Type: results.Closed, Concurrency: 4}, Ops: []OpView{{Name: "get"}, {Name: "step", Parent: "txn"}}, Interval: time.Second})
	t0 := time.Now()
	var series []results.IntervalSummary
	for i := range 3 {
		iv := interval(t0.Add(time.Duration(i) * time.Second))
		series = append(series, results.Summarize(iv, time.Duration(i+1)*time.Second))
		s.RunInterval(step, 1, iv, series[i])
	}
	var snaps []Snapshot
	_, body := get(t, base+"api/snapshots")
	if err := json.Unmarshal([]byte(body), &snaps); err != nil || len(snaps) != 3 {
		t.Fatalf("snapshots: %v, %d: %.300s", err, len(snaps), body)
	}
	tot := snaps[0].Total
	if tot.Count != 10 || tot.Errors != 1 || tot.P99 < 9.99 || tot.P99 > 10.02 || snaps[0].Client == nil {
		t.Errorf("the total must leave the transaction's step out: %+v, client %+v", tot, snaps[0].Client)
	}
	if code, _ := get(t, base+"report.html"); code != 404 {
		t.Errorf("report.html before the end = %d, want 404", code)
	}
	s.EndRun(step, &results.Result{Workload: results.Workload{Name: "w"}, Outcome: results.Completed, Intervals: series})
	s.Finish(nil, nil)
	var info Info
	_, body = get(t, base+"api/run")
	if err := json.Unmarshal([]byte(body), &info); err != nil || info.State != "finished" || info.Step != 1 || info.Links["report"] == "" {
		t.Fatalf("api/run after the end: %v %+v", err, info)
	}
	if code, body := get(t, base+"report.html"); code != 200 || body != "<html>report of w</html>" {
		t.Errorf("report.html = %d %q", code, body)
	}
	var res results.Result
	_, body = get(t, base+"results.json")
	if err := json.Unmarshal([]byte(body), &res); err != nil || len(res.Intervals) != 3 {
		t.Errorf("results.json must carry the run's series: %v, %d intervals", err, len(res.Intervals))
	}
}

// sse reads events from the stream until n have come or the time is up.
func sse(t *testing.T, url, lastID string, n int) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	var got []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	id := ""
	for len(got) < n && sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "event: "):
			got = append(got, id+" "+strings.TrimPrefix(line, "event: "))
		}
	}
	return got
}

// TestEventsReplayAndResume: a page that connects late gets every event
// from the start, and one that reconnects gets only what it missed.
func TestEventsReplayAndResume(t *testing.T) {
	s := start(t, nil)
	s.SetSweep("concurrency", []float64{4, 8})
	step := s.StartRun(Run{Ops: []OpView{{Name: "get"}, {Name: "step"}}})
	iv := interval(time.Now())
	s.RunInterval(step, 1, iv, results.Summarize(iv, time.Second))
	s.Server(results.ServerSample{T: 1, Dt: 1, At: time.Now()})
	s.EndRun(step, &results.Result{Outcome: results.Completed})
	got := sse(t, s.URL()+"api/events", "", 6)
	want := []string{"1 sweep", "2 run", "3 interval", "4 server", "5 result", "6 step"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("replay = %v, want %v", got, want)
	}
	go func() {
		// Finish once the page has reconnected: "done" then reaches it
		// live, after the replay of what it missed.
		testserver.Poll(5*time.Second, func() bool {
			s.hub.mu.Lock()
			defer s.hub.mu.Unlock()
			return len(s.hub.subs) > 0
		})
		s.Finish(nil, nil)
	}()
	if got := sse(t, s.URL()+"api/events", "5", 2); strings.Join(got, ",") != "6 step,7 done" {
		t.Errorf("resume after id 5 = %v", got)
	}
}

// TestSlowPageNeverBlocks: a page that reads nothing never holds up
// publishing; it is dropped, and its next connection replays from the history.
func TestSlowPageNeverBlocks(t *testing.T) {
	h := newHub()
	_, stalled := h.subscribe(0)
	done := make(chan struct{})
	go func() {
		for i := range subBuffer * 3 {
			h.publish("interval", i)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("publishing waited for a page that reads nothing")
	}
	select {
	case <-stalled.gone:
	default:
		t.Error("the stalled page was not dropped")
	}
	if past, _ := h.subscribe(0); len(past) != subBuffer*3 {
		t.Errorf("a reconnecting page gets %d events, want %d", len(past), subBuffer*3)
	}
}

// TestHistoryIsBounded: a very long run keeps run and result events and
// drops the oldest intervals, saying how many.
func TestHistoryIsBounded(t *testing.T) {
	h := newHub()
	h.publish("run", 1)
	for i := range maxEvents + 10 {
		h.publish("interval", i)
	}
	h.mu.Lock()
	n, trimmed, first := len(h.events), h.trimmed, h.events[0].typ
	h.mu.Unlock()
	if n > maxEvents || trimmed == 0 || first != "run" {
		t.Errorf("%d events kept, %d trimmed, first %q", n, trimmed, first)
	}
}

// TestPartialMarked: the phase's last interval and telemetry sample, cut
// short by its end, reach the page marked partial (results.Partial against
// the phase's interval), and only they: the page's charts leave them out
// rather than end in a false dip or spike.
func TestPartialMarked(t *testing.T) {
	s := start(t, nil)
	step := s.StartRun(Run{Ops: []OpView{{Name: "get"}, {Name: "step", Parent: "txn"}}, Interval: time.Second})
	t0 := time.Now()
	for i := range 2 {
		iv := interval(t0.Add(time.Duration(i) * time.Second))
		s.RunInterval(step, 1, iv, results.Summarize(iv, time.Duration(i+1)*time.Second))
	}
	cut := interval(t0.Add(2 * time.Second))
	cut.End = cut.Start.Add(50 * time.Millisecond)
	s.RunInterval(step, 1, cut, results.Summarize(cut, 2050*time.Millisecond))
	for _, dt := range []float64{1, 1, 0.05} {
		s.Server(results.ServerSample{T: 1, Dt: dt, At: time.Now()})
	}
	var snaps []Snapshot
	var samples []ServerEvent
	for url, into := range map[string]any{"api/snapshots": &snaps, "api/server": &samples} {
		if _, body := get(t, s.URL()+url); json.Unmarshal([]byte(body), into) != nil {
			t.Fatalf("%s: %.300s", url, body)
		}
	}
	var gotIv, gotSrv []bool
	for _, sn := range snaps {
		gotIv = append(gotIv, sn.Partial)
	}
	for _, e := range samples {
		gotSrv = append(gotSrv, e.Partial)
	}
	want := []bool{false, false, true}
	if !slices.Equal(gotIv, want) || !slices.Equal(gotSrv, want) {
		t.Errorf("partial: intervals %v, samples %v; want %v for each", gotIv, gotSrv, want)
	}
}
