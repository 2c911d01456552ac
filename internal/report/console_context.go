package report

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// ContextLine is the server's context in one line:
//
//	8.2.11 (FCV 8.2), replicaSet secantus (127.0.0.1:41079 PRIMARY), wiredTiger cache 256 MB, host vm 2 cores 23.5 GB
func ContextLine(c *results.ServerContext) string {
	if c == nil {
		return "unknown"
	}
	var parts []string
	v := cmp.Or(c.Version, "version unknown")
	if c.FCV != "" {
		v += " (FCV " + c.FCV + ")"
	}
	parts = append(parts, v)
	if t := c.Topology; t != nil {
		parts = append(parts, topologyText(t))
	}
	if c.StorageEngine != "" || c.CacheBytes != nil {
		s := cmp.Or(c.StorageEngine, "storage engine unknown")
		if c.CacheBytes != nil {
			s += " cache " + results.Bytes(*c.CacheBytes)
		}
		if c.BlockCompressor != "" {
			s += ", " + c.BlockCompressor + " blocks"
		}
		parts = append(parts, s)
	}
	if len(c.NetworkCompressors) > 0 {
		parts = append(parts, "network compressors "+strings.Join(c.NetworkCompressors, ","))
	}
	if h := c.Host; h != nil {
		s := "host"
		if h.Hostname != "" {
			s += " " + h.Hostname
		}
		if h.Cores != nil {
			s += fmt.Sprintf(", %d cores", *h.Cores)
		}
		if h.MemoryMB != nil {
			s += ", " + results.Bytes(*h.MemoryMB<<20)
		}
		if h.MemLimitMB != nil && h.MemoryMB != nil && *h.MemLimitMB < *h.MemoryMB {
			s += " (limit " + results.Bytes(*h.MemLimitMB<<20) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func topologyText(t *results.Topology) string {
	s := t.Kind
	if t.SetName != "" {
		s += " " + t.SetName
	}
	switch {
	case len(t.Members) > 0:
		ms := make([]string, len(t.Members))
		for i, m := range t.Members {
			ms[i] = m.Name + " " + m.State
		}
		s += " (" + strings.Join(ms, ", ") + ")"
	case t.Kind == results.Sharded:
		s += fmt.Sprintf(" (%s, %s)", results.Plural(int64(len(t.Shards)), "shard", "shards"), results.Plural(int64(len(t.Mongos)), "mongos", "mongos"))
	}
	return s
}

// writeContext writes the server's context and what it did not report.
func writeContext(w *errWriter, res *results.Result) {
	c := res.Context
	if c == nil {
		return
	}
	w.printf("\nserver context: %s\n", ContextLine(c))
	if len(c.Absent) > 0 {
		w.printf("                not reported: %s\n", strings.Join(c.Absent, ", "))
	}
}

// writeCollections writes the collections' statistics before and after.
func writeCollections(w *errWriter, res *results.Result) {
	if len(res.Collections) == 0 {
		return
	}
	w.printf("\ncollections, before -> after the run:\n")
	t := &table{left: 1}
	t.add("collection", "documents", "data", "storage", "indexes", "avg document")
	for _, c := range res.Collections {
		if c.Unavailable != "" {
			t.add(c.Namespace, c.Unavailable)
			continue
		}
		get := func(s *results.CollStats, f func(*results.CollStats) *int64) *int64 {
			if s == nil {
				return nil
			}
			return f(s)
		}
		pair := func(f func(*results.CollStats) *int64, format func(int64) string) string {
			return optText(get(c.Before, f), format) + " -> " + optText(get(c.After, f), format)
		}
		t.add(c.Namespace,
			pair(func(s *results.CollStats) *int64 { return s.Count }, results.Thousands),
			pair(func(s *results.CollStats) *int64 { return s.DataSize }, results.Bytes),
			pair(func(s *results.CollStats) *int64 { return s.StorageSize }, results.Bytes),
			pair(func(s *results.CollStats) *int64 { return s.TotalIndexSize }, results.Bytes),
			optText(get(c.After, func(s *results.CollStats) *int64 { return s.AvgObjSize }), results.Bytes))
	}
	t.write(w, "  ")
}

func optText(v *int64, format func(int64) string) string {
	if v == nil {
		return "-"
	}
	return format(*v)
}

// writeSlow writes the slow operations by shape, slowest first, with their
// plans where they were explained.
func writeSlow(w *errWriter, res *results.Result) {
	s := res.Slow
	if s == nil {
		return
	}
	w.printf("\nslow operations (at least %s): %s in %s\n", msText(s.ThresholdMs), results.Plural(s.Operations, "operation", "operations"),
		results.Plural(int64(len(s.Shapes)), "shape", "shapes"))
	if len(s.Shapes) == 0 {
		return
	}
	w.printf("%s", SlowTable(s))
}

// SlowTable is the insights table: one row per shape, slowest first,
// with its latencies; then, for the shapes that were explained, the
// winning plan, the index, keys and documents examined per document
// returned, and a flag on a collection scan.
func SlowTable(s *results.Slow) string {
	errs := s.Other != nil && s.Other.Errors > 0
	for _, sh := range s.Shapes {
		errs = errs || sh.Errors > 0
	}
	t := &table{left: 3}
	head := []string{"collection", "type", "shape", "count"}
	if errs {
		head = append(head, "errors")
	}
	t.add(append(head, "p50", "p99", "max")...)
	row := func(sh *results.SlowShape) {
		cells := []string{cmp.Or(sh.Namespace, "-"), cmp.Or(sh.Type, "-"), sh.Shape, results.Thousands(sh.Count)}
		if errs {
			cells = append(cells, results.Thousands(sh.Errors))
		}
		t.add(append(cells, slowLatency(sh)...)...)
	}
	for i := range s.Shapes {
		row(&s.Shapes[i])
	}
	if s.Other != nil {
		row(s.Other)
	}
	plans := &table{left: 5, textLast: true}
	plans.add("collection", "type", "shape", "plan", "index", "keys/ret", "docs/ret", "")
	for _, sh := range s.Shapes {
		e := sh.Explain
		switch {
		case e == nil:
		case e.Error != "":
			plans.add(cmp.Or(sh.Namespace, "-"), sh.Type, sh.Shape, "-", "-", "-", "-", e.Failure())
		default:
			flag := ""
			if e.CollScan {
				flag = "COLLECTION SCAN"
			}
			plans.add(cmp.Or(sh.Namespace, "-"), sh.Type, sh.Shape, e.Plan, cmp.Or(e.Index, "-"),
				perText(e.KeysPerReturned, e.KeysExamined), perText(e.DocsPerReturned, e.DocsExamined), flag)
		}
	}
	var b strings.Builder
	ew := &errWriter{w: &b}
	t.write(ew, "  ")
	if len(plans.rows) > 1 {
		ew.printf("\nplans of the slowest shapes (explain, executionStats, after the run):\n")
		plans.write(ew, "  ")
	}
	out := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i, l := range out {
		out[i] = strings.TrimRight(l, " ") // an empty flag column
	}
	return strings.Join(out, "\n") + "\n"
}

func slowLatency(sh *results.SlowShape) []string {
	if sh.Count == 0 {
		return []string{"-", "-", "-"}
	}
	return []string{msFixed(sh.Latency.P50), msFixed(sh.Latency.P99), msFixed(sh.Latency.Max)}
}

// perText is examined per returned, or the total examined over nothing
// returned ("1,000/0").
func perText(per *float64, total int64) string {
	if per != nil {
		return results.Rate(*per)
	}
	return results.Thousands(total) + "/0"
}

// msText formats a threshold in milliseconds: 200ms, 1.5s.
func msText(v float64) string {
	if v >= 1000 {
		return results.Decimal1(v/1000) + "s"
	}
	return results.Decimal1(v) + "ms"
}

// writeCPU sets the client's CPU per interval beside the server's, and
// says which side was saturated.
func writeCPU(w *errWriter, res *results.Result) {
	line, verdicts := CPUSummary(res)
	if line == "" {
		return
	}
	w.printf("cpu:      %s\n", line)
	for _, v := range verdicts {
		w.printf("          %s\n", v)
	}
}

// CPUSummary is the client's and the server's CPU over the intervals, in
// one line, and a verdict for each side that reached saturation.
func CPUSummary(res *results.Result) (string, []string) {
	var cAvg, cPeak float64
	var cN, cHot int
	for _, iv := range results.Charted(res.Intervals) {
		if iv.Client == nil {
			continue
		}
		u := iv.Client.Utilization
		cAvg += u
		cPeak = max(cPeak, u)
		cN++
		if u >= results.Saturated {
			cHot++
		}
	}
	var sAvg, sPeak float64
	var sN, sHot int
	var cores int64
	if res.Context != nil && res.Context.Host != nil && res.Context.Host.Cores != nil {
		cores = *res.Context.Host.Cores
	}
	reported := false
	if res.Server != nil {
		for _, x := range res.Server.ChartSamples() {
			busy, ok := x.CPU.Seconds()
			if !ok {
				continue
			}
			reported = true
			if cores == 0 {
				continue
			}
			u := busy / x.Dt / float64(cores)
			sAvg += u
			sPeak = max(sPeak, u)
			sN++
			if u >= results.Saturated {
				sHot++
			}
		}
	}
	if cN == 0 && !reported && (res.Client == nil || res.Client.PeakUtilization == 0) {
		return "", nil // nothing per interval (an older or merged file)
	}
	if c := res.Client; cN == 0 && c != nil && c.PeakUtilization > 0 {
		// The console's result has no series: the client section summarizes it.
		cAvg, cPeak, cN, cHot = c.Utilization, c.PeakUtilization, 1, c.SaturatedIntervals
	}
	var parts, verdicts []string
	if cN > 0 {
		cc := ""
		if res.Client != nil {
			cc = " of " + res.Client.CoresText()
		}
		parts = append(parts, fmt.Sprintf("client avg %.0f%%, busiest interval %.0f%%%s", 100*cAvg/float64(cN), 100*cPeak, cc))
		if cHot > 0 {
			verdicts = append(verdicts, fmt.Sprintf("mongoload itself was CPU-saturated in %s: the client may have been the limit, not the server", results.Plural(int64(cHot), "interval", "intervals")))
		}
	}
	switch {
	case sN > 0:
		parts = append(parts, fmt.Sprintf("server avg %.0f%%, busiest interval %.0f%% of %d cores", 100*sAvg/float64(sN), 100*sPeak, cores))
		if sHot > 0 {
			verdicts = append(verdicts, fmt.Sprintf("the server was CPU-saturated in %s", results.Plural(int64(sHot), "interval", "intervals")))
		}
	case reported:
		parts = append(parts, "server CPU reported, but not its cores (hostInfo): no share")
	case res.Server != nil:
		parts = append(parts, "server CPU not reported by the server (serverStatus.extra_info)")
	}
	return strings.Join(parts, "; "), verdicts
}
