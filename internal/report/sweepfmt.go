package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/results"
)

// WriteSweepConsole writes a sweep for people: a header, the verdict table,
// latency by class, the server's figures when it reported any, the
// analysis in a few sentences, notes and the rules used.
func WriteSweepConsole(w io.Writer, sw *results.Sweep) error {
	ew := &errWriter{w: w}
	writeHead(ew, "", sw.FileHead, sweepHeader(sw), false)
	for _, t := range sweepTables(sw) {
		ew.printf("\n%s\n", t.title)
		t.write(ew, "")
	}
	if a := sw.Analysis; a != nil {
		ew.printf("\n")
		for _, s := range a.Summary {
			ew.printf("%s\n", s)
		}
	}
	if sw.ReliableWhy != "" {
		ew.printf("%s\n", sw.ReliableWhy)
	}
	writeCalibration(ew, sw.Calibration, false)
	writeNotes(ew, sw.Notes, false)
	if a := sw.Analysis; a != nil {
		ew.printf("\nrules:    %s\n", describeRules(a.Rules))
	}
	return ew.err
}

// WriteSweepMarkdown writes the same as WriteSweepConsole as Markdown,
// ready for a blog post or a ticket.
func WriteSweepMarkdown(w io.Writer, sw *results.Sweep) error {
	ew := &errWriter{w: w}
	writeHead(ew, "Sweep", sw.FileHead, sweepHeader(sw), true)
	for _, t := range sweepTables(sw) {
		ew.printf("\n### %s\n\n", strings.TrimSuffix(t.title, ":"))
		t.markdown(ew)
	}
	if a := sw.Analysis; a != nil {
		ew.printf("\n")
		for _, s := range a.Summary {
			ew.printf("%s\n\n", mdEscape(s))
		}
		ew.printf("Rules: %s.\n", describeRules(a.Rules))
	}
	if sw.ReliableWhy != "" {
		ew.printf("\n**%s**\n", mdEscape(sw.ReliableWhy))
	}
	writeCalibration(ew, sw.Calibration, true)
	writeNotes(ew, sw.Notes, true)
	return ew.err
}

// sweepHeader is the sweep's description as label/value pairs.
func sweepHeader(sw *results.Sweep) [][2]string {
	h := [][2]string{{"sweep", fmt.Sprintf("%s %s, %s", sw.Tool.Name, sw.Tool.Version, results.SweepSchema)}, {"workload", workloadText(sw.Workload)}}
	if sw.Label != "" {
		h = append(h, [2]string{"label", sw.Label})
	}
	if sw.Cost != nil {
		h = append(h, [2]string{"cost", fmt.Sprintf("%s %s/month", costText(sw.Cost.Monthly), sw.Cost.Currency)})
	}
	levels := make([]string, len(sw.Load.Levels))
	for i, l := range sw.Load.Levels {
		levels[i] = results.Target(l)
	}
	h = append(h, [2]string{"load", fmt.Sprintf("%s loop, %s %s", loopName(sw.Load.Type), sw.Load.ColumnName(), strings.Join(levels, ", "))})
	h = append(h, [2]string{"steps", fmt.Sprintf("%s measured after a %s warm-up, %s cooldown between steps",
		results.ShortDuration(secondsDuration(sw.StepSeconds)), results.ShortDuration(secondsDuration(sw.WarmupSeconds)), results.ShortDuration(secondsDuration(sw.CooldownSeconds)))})
	when := sw.StartedAt.Format(time.RFC3339) + " to " + sw.EndedAt.Format(time.RFC3339)
	h = append(h, [2]string{"when", when})
	if sw.Outcome != results.Completed {
		h = append(h, [2]string{"outcome", OutcomeText(sw.Outcome, sw.Reason)})
	}
	return h
}

func loopName(t string) string {
	switch t {
	case results.Open:
		return "open"
	case results.Sessions:
		return "sessions"
	}
	return "closed"
}

func costText(f float64) string {
	if f == float64(int64(f)) {
		return results.Thousands(int64(f))
	}
	whole := fmt.Sprintf("%.2f", f)
	i := strings.IndexByte(whole, '.')
	var n int64
	fmt.Sscan(whole[:i], &n)
	return results.Thousands(n) + whole[i:]
}

func describeRules(r results.SweepThresholds) string {
	return fmt.Sprintf("linear gain %g, knee gain %g, latency knee x%g, plateau %g%%, degraded drop %g%%, oversaturated x%g (on %s latency), client CPU limit %g%%",
		r.LinearGain, r.KneeGain, r.LatencyKnee, 100*r.Plateau, 100*r.DegradedDrop, r.Oversaturated, r.Latency, 100*r.ClientCPU)
}

// titledTable is a table with its title.
type titledTable struct {
	title string
	*table
}

// sweepTables are the verdict table, latency by class and, when the
// server reported any, its figures.
func sweepTables(sw *results.Sweep) []titledTable {
	a := sw.Analysis
	if a == nil {
		return nil
	}
	col := sw.Load.ColumnName()
	main := &table{textLast: true}
	main.add(col, "ops/s", "gain", "avg", "p50", "p95", "p99", "errors", "client CPU", "other cpu", "verdict")
	noise := map[float64]string{} // each step's interference: other work on the host
	for _, st := range sw.Steps {
		noise[st.Level] = results.NoiseText(st.Result)
	}
	classes := &table{}
	classes.add(col, "read ops/s", "avg", "p50", "p95", "p99", "write ops/s", "avg", "p50", "p95", "p99")
	server := &table{}
	server.add(col, "server CPU", "cache used", "dirty", "pages read/s", "connections", "tickets", "lag")
	haveServer := false
	for _, f := range a.Steps {
		verdict := f.Verdict
		if !f.Complete {
			verdict = "(interrupted: not judged)"
		}
		if f.AboveInFlightLimit {
			verdict = strings.TrimPrefix(verdict+"; ", "; ") + fmt.Sprintf("queued in the client: above its %s in-flight places", results.Thousands(int64(f.InFlightLimit)))
		}
		cpu := "-"
		if f.ClientCPU != nil {
			cpu = fmt.Sprintf("%.0f%%", 100**f.ClientCPU)
		}
		l := f.Latency
		main.add(results.Target(f.Level), results.Rate(f.Throughput), gainText(f.Gain), msFixed(l.Avg), msFixed(l.P50), msFixed(l.P95), msFixed(l.P99), errorsText(f), cpu, dash(noise[f.Level]), dash(verdict))
		row := []string{results.Target(f.Level)}
		for _, c := range []*results.Class{f.Read, f.Write} {
			if c == nil {
				row = append(row, "-", "-", "-", "-", "-")
				continue
			}
			row = append(row, results.Rate(c.Throughput), msFixed(c.Latency.Avg), msFixed(c.Latency.P50), msFixed(c.Latency.P95), msFixed(c.Latency.P99))
		}
		classes.add(row...)
		if s := f.Server; s != nil {
			haveServer = true
			server.add(results.Target(f.Level), optF(s.CPUCores, "%.2f"), optPct(s.CacheUsed), optPct(s.CacheDirty), optF(s.PagesReadPerSec, "%.0f"), optPct(s.Connections), optI(s.TicketsMin), optF(s.LagSeconds, "%.1fs"))
		} else {
			server.add(results.Target(f.Level), "-", "-", "-", "-", "-", "-", "-")
		}
	}
	out := []titledTable{{"steps (latency in ms; gain: throughput gain over the previous step as a share of the proportional gain):", main}}
	out = append(out, titledTable{"latency by class (ms): reads are find, findOne, aggregate, countDocuments; writes are the rest:", classes})
	if haveServer {
		out = append(out, titledTable{"server (worst sample of each step; CPU in cores busy; - where the server does not report it):", server})
	}
	if sw.USL != nil {
		out = append(out, uslTable(sw.USL))
	}
	return out
}

func gainText(g *float64) string {
	if g == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100**g)
}

func errorsText(f results.StepFigures) string {
	if f.Errors == 0 {
		return "0"
	}
	return fmt.Sprintf("%s (%.2g%%)", results.Thousands(f.Errors), 100*float64(f.Errors)/float64(f.Errors+f.Operations))
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func optF(p *float64, format string) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf(format, *p)
}

func optPct(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100**p)
}

func optI(p *int64) string {
	if p == nil {
		return "-"
	}
	return results.Thousands(*p)
}

// markdown writes t as a Markdown table, its first row the header; number
// columns (past t.left) are right-aligned.
func (t *table) markdown(w *errWriter) {
	for i, r := range t.rows {
		cells := make([]string, len(r))
		for j, c := range r {
			cells[j] = strings.ReplaceAll(c, "|", `\|`)
		}
		w.printf("| %s |\n", strings.Join(cells, " | "))
		if i == 0 {
			seps := make([]string, len(r))
			for j := range r {
				seps[j] = "---"
				if j >= max(t.left, 1) && !(t.textLast && j == len(r)-1) {
					seps[j] = "---:"
				}
			}
			w.printf("| %s |\n", strings.Join(seps, " | "))
		}
	}
}

// mdEscape keeps text from being read as Markdown markup.
func mdEscape(s string) string {
	return strings.NewReplacer("*", `\*`, "_", `\_`, "|", `\|`, "<", "&lt;").Replace(s)
}
