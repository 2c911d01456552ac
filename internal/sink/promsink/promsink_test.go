package promsink

import (
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/sink"
)

// Scrape fetches url and parses it with Prometheus's own text parser.
func Scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET %s: %s\n%s", url, resp.Status, b)
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse %s: %v", url, err)
	}
	return fams
}

// Labelled returns the metric of family name whose labels include want.
func Labelled(fams map[string]*dto.MetricFamily, name string, want map[string]string) *dto.Metric {
	f := fams[name]
	if f == nil {
		return nil
	}
next:
	for _, m := range f.Metric {
		have := map[string]string{}
		for _, l := range m.Label {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		return m
	}
	return nil
}

// TestExporterServesIntervals protects what Prometheus sees: counters equal
// to the intervals' counts, errors by class, histogram buckets filled
// exactly from the HDR histograms (every latency is chosen away from bucket
// edges or below 2 ms, where HDR is exact), and the open-loop gauges.
func TestExporterServesIntervals(t *testing.T) {
	e, err := Listen(Options{Addr: "127.0.0.1:0", Ops: []Op{{"get", "findOne"}, {"put", "insertOne"}}, Workload: "w", Version: "test", Load: "open"})
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + e.Addr() + "/metrics"
	before := Scrape(t, url)
	if m := Labelled(before, "mongoload_operations_total", map[string]string{"operation": "get", "type": "findOne"}); m == nil || m.Counter.GetValue() != 0 {
		t.Fatalf("before any interval: %v", m)
	}
	if before["mongoload_in_flight_operations"] != nil {
		t.Error("gauges served before the first interval")
	}

	values := []time.Duration{90 * time.Microsecond, 700 * time.Microsecond, 1500 * time.Microsecond, 3 * time.Millisecond, 7 * time.Millisecond, 40 * time.Millisecond, 2 * time.Second, 2 * time.Minute}
	r := metrics.NewRecorder([]string{"get", "put"}, metrics.Options{Shards: 2, Service: true})
	rng := rand.New(rand.NewPCG(1, 2))
	want := map[float64]uint64{}
	var count uint64
	start := time.Now()
	r.Reset(start)
	for sec := 1; sec <= 3; sec++ {
		for i := range 1000 {
			v := values[rng.IntN(len(values))]
			r.Shard(i).RecordService(0, v, v/2)
			count++
			for _, b := range Buckets {
				if v.Seconds() <= b {
					want[b]++
				}
			}
			if i%100 == 0 {
				r.Shard(i).RecordError(1, "timeout")
			}
		}
		r.Scheduled(1200)
		r.Dropped()
		r.InFlight(int64(sec))
		iv := r.Interval(start.Add(time.Duration(sec) * time.Second))
		iv.Load.TargetRate = 1200
		e.Interval(sink.NewSnapshot(iv, time.Duration(sec)*time.Second))
	}

	fams := Scrape(t, url)
	get := map[string]string{"operation": "get"}
	if m := Labelled(fams, "mongoload_operations_total", get); m.Counter.GetValue() != float64(count) {
		t.Errorf("operations %v, want %d", m.Counter.GetValue(), count)
	}
	if m := Labelled(fams, "mongoload_errors_total", map[string]string{"operation": "put", "class": "timeout"}); m == nil || m.Counter.GetValue() != 30 {
		t.Errorf("errors %v, want 30", m)
	}
	h := Labelled(fams, "mongoload_latency_seconds", get).Histogram
	if h.GetSampleCount() != count {
		t.Errorf("histogram count %d, want %d", h.GetSampleCount(), count)
	}
	want[math.Inf(1)] = count
	for _, b := range h.Bucket {
		if b.GetCumulativeCount() != want[b.GetUpperBound()] {
			t.Errorf("bucket le=%v: %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), want[b.GetUpperBound()])
		}
	}
	if s := Labelled(fams, "mongoload_service_time_seconds", get); s == nil || s.Histogram.GetSampleCount() != count {
		t.Errorf("service times %v", s)
	}
	gauges := []struct {
		name string
		want float64
	}{
		{"mongoload_scheduled_operations_total", 3600}, // a counter over the run
		{"mongoload_dropped_operations_total", 3},      // one per interval
		{"mongoload_in_flight_operations", 6},          // 1+2+3, a gauge at the last interval
		{"mongoload_target_ops_per_second", 1200},      // the schedule's aim
		{"mongoload_achieved_ops_per_second", 1010},    // successes and errors of the last second
		{"mongoload_measured_seconds", 3},              // the last interval's end
	}
	for _, g := range gauges {
		f := fams[g.name]
		if f == nil {
			t.Errorf("%s missing", g.name)
			continue
		}
		m := f.Metric[0]
		v := m.GetGauge().GetValue() + m.GetCounter().GetValue()
		if v != g.want {
			t.Errorf("%s = %v, want %v", g.name, v, g.want)
		}
	}
	if err := e.Close(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(url); err == nil {
		t.Error("the endpoint still answers after Close")
	}
}

// TestListenAddr protects the rule that a port alone listens on loopback:
// a run exposes its figures beyond the machine only when told to.
func TestListenAddr(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"9464", "127.0.0.1:9464", ""},               // a bare port: loopback
		{":9464", "127.0.0.1:9464", ""},              // no host: loopback, not every interface
		{"0.0.0.0:9464", "0.0.0.0:9464", ""},         // every interface, explicitly
		{"[::1]:9464", "[::1]:9464", ""},             // IPv6 loopback
		{"metrics.local:80", "metrics.local:80", ""}, // a host name is kept
		{"localhost", "", "want host:port"},          // no port
		{"127.0.0.1:http", "", "not a port"},         // named ports are not resolved
		{"99999", "", "want host:port"},              // out of range
	}
	for _, tt := range tests {
		got, err := ListenAddr(tt.in)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("ListenAddr(%q) = %q, %v; want %q, %q", tt.in, got, err, tt.want, tt.err)
		}
	}
}
