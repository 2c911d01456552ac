package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/results"
)

// writeMerged names the files a merged result came from.
func writeMerged(w *errWriter, res *results.Result) {
	if res.Merged == nil {
		return
	}
	parts := make([]string, len(res.Merged.Sources))
	for i, s := range res.Merged.Sources {
		kind := "results"
		if s.Kind == "hlog" {
			kind = "interval log"
		}
		if s.Partition != "" {
			kind += ", partition " + s.Partition
		}
		parts[i] = fmt.Sprintf("%s (%s)", s.File, kind)
	}
	w.printf("merged:   %s: %s\n", results.Plural(int64(len(parts)), "file", "files"), strings.Join(parts, ", "))
}

// writeServer writes what the server said about the measured phase: a
// summary of its telemetry and the cross-check of its operation counters.
func writeServer(w *errWriter, res *results.Result) {
	s := res.Server
	if s == nil {
		return
	}
	if s.Unavailable != "" {
		w.printf("\nserver:   no telemetry: %s\n", s.Unavailable)
		return
	}
	defer func() {
		// Every note the telemetry made (a restart, failed samples, ...):
		// it qualifies the figures above, so it is never left to the JSON.
		for _, n := range s.Notes {
			w.printf("          note: %s\n", n)
		}
	}()
	who := strings.TrimSpace(s.Host + " " + s.Process + " " + s.Version)
	w.printf("\nserver:   %s, %s every %s\n", who, results.Plural(int64(len(s.Samples)), "sample", "samples"), results.ShortDuration(secondsDuration(s.IntervalSeconds)))
	if o := s.Opcounters; o != nil && res.DurationSeconds > 0 {
		w.printf("          %s ops/s over the phase (%s)\n", results.Whole(float64(sumCounters(o))/res.DurationSeconds), counterList(o, res.DurationSeconds))
	}
	if line := serverPeaks(s); line != "" {
		w.printf("          %s\n", line)
	}
	if len(s.Absent) > 0 {
		w.printf("          not reported by the server: %s\n", strings.Join(s.Absent, ", "))
	}
	writeCrossCheck(w, s.CrossCheck)
}

func writeCrossCheck(w *errWriter, cc *results.CrossCheck) {
	if cc == nil {
		return
	}
	verdict := "they agree"
	if !cc.OK {
		verdict = "MISMATCH"
	}
	w.printf("\ncross-check, the server's operation counters against mongoload's operations (counted as %s): %s\n", cc.Model, verdict)
	t := &table{left: 2}
	t.add("counter", "status", "mongoload", "own", "server", "diff", "tolerance")
	var why []string
	for _, r := range cc.Rows {
		if r.Status == "info" {
			t.add(r.Counter, "not predicted", "-", "-", results.Thousands(r.Server), "-", "-")
			continue
		}
		diff := r.Server - r.Expected - r.Own
		sign := ""
		if diff > 0 {
			sign = "+"
		}
		switch r.Status {
		case "more":
			why = append(why, fmt.Sprintf("%s: the server counted %s more than mongoload sent: other clients, or work mongoload does not predict", r.Counter, results.Thousands(diff)))
		case "fewer":
			why = append(why, fmt.Sprintf("%s: the server counted %s fewer than mongoload sent: it missed them, or counts them elsewhere", r.Counter, results.Thousands(-diff)))
		}
		t.add(r.Counter, strings.ToUpper(r.Status), results.Thousands(r.Expected), results.Thousands(r.Own), results.Thousands(r.Server), sign+results.Thousands(diff), results.Thousands(r.Tolerance))
	}
	t.write(w, "  ")
	for _, s := range why {
		w.printf("  %s\n", s)
	}
}

// serverPeaks summarizes the gauges and rates over the samples.
func serverPeaks(s *results.Server) string {
	var cache, maxCache, dirty int64
	var conns int64 = -1
	var in, out, secs float64
	var parts []string
	for _, x := range s.Samples {
		if c := x.Cache; c != nil && c.BytesInUse != nil {
			cache = max(cache, *c.BytesInUse)
			if c.MaxBytes != nil {
				maxCache = *c.MaxBytes
			}
			if c.DirtyBytes != nil {
				dirty = max(dirty, *c.DirtyBytes)
			}
		}
		if c := x.Connections; c != nil && c.Current != nil {
			conns = max(conns, *c.Current)
		}
		if n := x.Network; n != nil && n.BytesIn != nil && n.BytesOut != nil {
			in, out, secs = in+float64(*n.BytesIn), out+float64(*n.BytesOut), secs+x.Dt
		}
	}
	if cache > 0 {
		p := fmt.Sprintf("cache up to %.0f MB", float64(cache)/(1<<20))
		if maxCache > 0 {
			p += fmt.Sprintf(" of %.0f MB, dirty up to %.0f%%", float64(maxCache)/(1<<20), 100*float64(dirty)/float64(maxCache))
		}
		parts = append(parts, p)
	}
	if conns >= 0 {
		parts = append(parts, "up to "+results.Plural(conns, "connection", "connections"))
	}
	if secs > 0 {
		parts = append(parts, fmt.Sprintf("network %.1f MB/s in, %.1f MB/s out", in/secs/1e6, out/secs/1e6))
	}
	return strings.Join(parts, "; ")
}

func sumCounters(o *results.Opcounters) int64 {
	var n int64
	for _, p := range []*int64{o.Query, o.Insert, o.Update, o.Delete, o.Command, o.Getmore} {
		if p != nil {
			n += *p
		}
	}
	return n
}

func counterList(o *results.Opcounters, secs float64) string {
	var parts []string
	for _, c := range []struct {
		name string
		v    *int64
	}{{"query", o.Query}, {"insert", o.Insert}, {"update", o.Update}, {"delete", o.Delete}, {"command", o.Command}, {"getmore", o.Getmore}} {
		v := "-"
		if c.v != nil {
			v = results.Whole(float64(*c.v) / secs)
		}
		parts = append(parts, c.name+" "+v)
	}
	return strings.Join(parts, ", ")
}

// secondsDuration converts seconds to a duration, to the millisecond.
func secondsDuration(s float64) time.Duration {
	return time.Duration(s*1000+0.5) * time.Millisecond
}
