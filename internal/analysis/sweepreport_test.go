package analysis

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestAnalyseSweepSeed000 runs the whole analysis on real histograms
// shaped like seed 000's workload #1 and expects the fixture's verdicts.
func TestAnalyseSweepSeed000(t *testing.T) {
	sw := resultstest.Sweep("concurrency", "primary", resultstest.Seed000())
	a, err := AnalyseSweep(sw, DefaultSweepOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range sweepFixtures[0].rows {
		if got := a.Steps[i].Verdict; got != string(r.want) {
			t.Errorf("%g workers: %q, want %q (throughput %.1f, avg %.3f)", r.level, got, r.want, a.Steps[i].Throughput, a.Steps[i].Latency.Avg)
		}
	}
	if a.SweetSpot == nil || *a.SweetSpot != 3 || a.Saturation == nil || *a.Saturation != 4 || a.Best == nil || *a.Best != 6 {
		t.Errorf("sweet spot %v, saturation %v, best %v; want 3, 4, 6", a.SweetSpot, a.Saturation, a.Best)
	}
	f := a.Steps[0]
	if f.Read == nil || f.Write == nil || f.Read.Operations+f.Write.Operations != f.Operations {
		t.Errorf("classes do not add up: %+v %+v of %d", f.Read, f.Write, f.Operations)
	}
	if f.Write.Latency.Avg <= f.Read.Latency.Avg {
		t.Errorf("writes (%.3f) should be slower than reads (%.3f)", f.Write.Latency.Avg, f.Read.Latency.Avg)
	}
	if a.Limit.Kind != "server" || a.Limit.Text != "the server (no telemetry to say which resource)" {
		t.Errorf("limit %+v", a.Limit)
	}
	if len(a.Summary) < 4 || !strings.HasPrefix(a.Summary[0], "Sweet spot: 32 workers") {
		t.Errorf("summary %q", a.Summary)
	}
	if _, err := json.Marshal(a); err != nil { // no NaN may reach the file
		t.Fatal(err)
	}
}

func TestSweepLimit(t *testing.T) {
	cpu := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		name  string
		edit  func([]resultstest.Step) []resultstest.Step
		local bool
		kind  string
		text  string // a part of the sentence
	}{
		// No telemetry, a remote server: the server, unnamed.
		{"no telemetry", nil, false, "server", "no telemetry to say which resource"},
		// The client's CPU at 90% past saturation: the generator is named, not the server.
		{"client saturated", func(s []resultstest.Step) []resultstest.Step { s[6].ClientCPU = 0.9; return s }, false, "client", "mongoload used 90% of 2 cores at 80 workers"},
		// A client at 90% below saturation only does not count.
		{"client busy early", func(s []resultstest.Step) []resultstest.Step { s[1].ClientCPU = 0.9; return s }, false, "server", "no telemetry"},
		// Dirty data at 25% of the cache at saturation.
		{"cache dirty", func(s []resultstest.Step) []resultstest.Step {
			for i := range s {
				s[i].Server = resultstest.ServerSample(0.5, 0.02+0.05*float64(i), nil)
			}
			return s
		}, false, "server-cache", "dirty data reached 22% of it at 48 workers"},
		// Server CPU reported, nothing else under pressure.
		{"server cpu", func(s []resultstest.Step) []resultstest.Step {
			for i := range s {
				s[i].Server = resultstest.ServerSample(0.5, 0.01, cpu(min(0.5*float64(i+1), 3.9)))
			}
			return s
		}, false, "server-cpu", "it used 2.50 cores at 48 workers (2.00 at the sweet spot)"},
		// Telemetry without CPU and without pressure.
		{"telemetry, no pressure", func(s []resultstest.Step) []resultstest.Step {
			for i := range s {
				s[i].Server = resultstest.ServerSample(0.5, 0.01, nil)
			}
			return s
		}, false, "server", "no cache, ticket or connection pressure"},
		// Still scaling at the top: nothing limited the run yet.
		{"no saturation", func(s []resultstest.Step) []resultstest.Step { return s[:3] }, false, "none", "sweep higher"},
		// One step: nothing to say.
		{"one step", func(s []resultstest.Step) []resultstest.Step { return s[:1] }, false, "unknown", "too few"},
		// The server on loopback shares the machine with the client.
		{"local server", nil, true, "server", "runs on this machine (127.0.0.1:27017) and shares its 2 cores with the client, mongoload using 15% of them at 48 workers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			steps := resultstest.Seed000()
			if c.edit != nil {
				steps = c.edit(steps)
			}
			sw := resultstest.Sweep("concurrency", "", steps)
			if c.local {
				for _, st := range sw.Steps {
					st.Result.Config = json.RawMessage(`{"connection":{"uri":"mongodb://127.0.0.1:27017/?directConnection=true"}}`)
				}
			}
			a, err := AnalyseSweep(sw, DefaultSweepOptions())
			if err != nil {
				t.Fatal(err)
			}
			if a.Limit.Kind != c.kind || !strings.Contains(a.Limit.Text, c.text) {
				t.Errorf("limit %s: %q; want %s containing %q", a.Limit.Kind, a.Limit.Text, c.kind, c.text)
			}
		})
	}
}

// An interrupted last step is kept with its figures but not judged.
func TestAnalyseSweepInterrupted(t *testing.T) {
	steps := resultstest.Seed000()[:5]
	steps[4].Partial = true
	a, err := AnalyseSweep(resultstest.Sweep("concurrency", "", steps), DefaultSweepOptions())
	if err != nil {
		t.Fatal(err)
	}
	if a.Steps[4].Verdict != "" || a.Steps[4].Complete || a.Steps[4].Throughput == 0 {
		t.Errorf("interrupted step: %+v", a.Steps[4])
	}
	if a.Steps[3].Verdict == string(SweetSpot) {
		t.Errorf("the sweet spot cannot be named from an interrupted step: %+v", a.Steps[3])
	}
}

func TestLoopbackHost(t *testing.T) {
	for _, c := range []struct {
		uri  string
		want bool
	}{
		{"mongodb://127.0.0.1:27017", true},                   // IPv4 loopback
		{"mongodb://localhost/?replicaSet=rs0", true},         // by name
		{"mongodb://[::1]:27017", true},                       // IPv6 loopback
		{"mongodb://127.0.0.1:1,127.0.0.2:2", true},           // every host local
		{"mongodb://127.0.0.1:1,db2.example.net:2", false},    // one remote host
		{"mongodb+srv://cluster0.example.mongodb.net", false}, // remote
		{"mongodb://user:REDACTED@localhost:27017/app", true}, // credentials do not matter
	} {
		cfg, _ := json.Marshal(map[string]any{"connection": map[string]any{"uri": c.uri}})
		if _, got := loopbackHost(cfg); got != c.want {
			t.Errorf("%s: %v, want %v", c.uri, got, c.want)
		}
	}
}

func TestServerFiguresOf(t *testing.T) {
	if ServerFiguresOf(nil) != nil || ServerFiguresOf(&results.Server{}) != nil {
		t.Error("no samples must give nil")
	}
	seven, zero := int64(7), int64(0)
	s := resultstest.ServerSample(0.5, 0.1, nil)
	s.Samples[0].Connections = &results.Connections{Current: &seven, Available: &zero}
	f := ServerFiguresOf(s)
	if f.Connections != nil {
		t.Errorf("7 connections and 0 available is no stated limit: %v", *f.Connections)
	}
	if *f.CacheUsed != 0.5 || *f.CacheDirty != 0.1 || f.CPUCores != nil {
		t.Errorf("figures %+v", f)
	}
	// 0 available in every sample with a thousand open is a counter the
	// server does not keep (SecantusDB), never an exhausted pool.
	many := int64(1000)
	s.Samples[0].Connections = &results.Connections{Current: &many, Available: &zero}
	if f := ServerFiguresOf(s); f.Connections != nil {
		t.Errorf("1,000 connections and 0 available in every sample named a limit: %v", *f.Connections)
	}
	// One that counted down to 0 is exhausted.
	twenty := int64(20)
	later := s.Samples[0]
	s.Samples[0].Connections = &results.Connections{Current: &seven, Available: &twenty}
	later.Connections = &results.Connections{Current: &many, Available: &zero}
	s.Samples = append(s.Samples, later)
	if f := ServerFiguresOf(s); f.Connections == nil || *f.Connections != 1 {
		t.Errorf("a pool that counted down to 0: %v", f.Connections)
	}
}
