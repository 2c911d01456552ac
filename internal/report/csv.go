package report

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// CSV files, each with a header row; numbers are plain (no separators),
// latencies in ms, shares as fractions 0..1, empty where there is no value.
const (
	CSVSweep      = "sweep.csv"      // one row per sweep step
	CSVIntervals  = "intervals.csv"  // one row per interval and operation (per step for a sweep)
	CSVOperations = "operations.csv" // one row per operation of a result (per step for a sweep)
	CSVServer     = "server.csv"     // one row per server telemetry sample
	CSVCompare    = "compare.csv"    // one row per compared metric
)

// WriteResultCSV writes a result's operations, interval series and server
// samples into dir, and returns the files written.
func WriteResultCSV(dir string, res *results.Result) ([]string, error) {
	return writeCSVs(dir, map[string][][]string{
		CSVOperations: operationRows(nil, res),
		CSVIntervals:  intervalRows(nil, res),
		CSVServer:     serverRows(nil, res),
	})
}

// WriteSweepCSV writes a sweep's step table, and every step's operations,
// interval series and server samples with the step's level, into dir.
func WriteSweepCSV(dir string, sw *results.Sweep) ([]string, error) {
	files := map[string][][]string{CSVSweep: sweepRows(sw)}
	for i, st := range sw.Steps {
		if st.Result == nil {
			continue
		}
		pre := []string{strconv.Itoa(i + 1), num(st.Level)}
		for name, rows := range map[string][][]string{
			CSVOperations: operationRows(pre, st.Result),
			CSVIntervals:  intervalRows(pre, st.Result),
			CSVServer:     serverRows(pre, st.Result),
		} {
			if len(files[name]) > 0 {
				rows = rows[1:] // one header
			}
			files[name] = append(files[name], rows...)
		}
	}
	return writeCSVs(dir, files)
}

// WriteComparisonCSV writes a comparison's table into dir.
func WriteComparisonCSV(dir string, c *results.Comparison) ([]string, error) {
	head := []string{"metric", "key", "unit"}
	for _, in := range c.Inputs {
		head = append(head, in.Label)
	}
	for i, in := range c.Inputs {
		if i != c.Baseline {
			head = append(head, in.Label+" change %")
		}
	}
	rows := [][]string{head}
	for _, r := range c.Rows {
		row := []string{r.Metric, r.Key, r.Unit}
		for _, v := range r.Values {
			row = append(row, optNum(v))
		}
		for i, ch := range r.Change {
			if i != c.Baseline {
				row = append(row, optNum(ch))
			}
		}
		rows = append(rows, row)
	}
	return writeCSVs(dir, map[string][][]string{CSVCompare: rows})
}

func writeCSVs(dir string, files map[string][][]string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("write CSV into %q: %w", dir, err)
	}
	var written []string
	for _, name := range []string{CSVSweep, CSVOperations, CSVIntervals, CSVServer, CSVCompare} {
		rows, ok := files[name]
		if !ok || len(rows) <= 1 && name == CSVServer {
			continue // no server samples: no file rather than a header alone
		}
		path := filepath.Join(dir, name)
		if err := writeCSV(path, rows); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	return written, nil
}

func writeCSV(path string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write CSV: %w", err)
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(rows); err != nil {
		f.Close()
		return fmt.Errorf("write CSV %q: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write CSV %q: %w", path, err)
	}
	return nil
}

func sweepRows(sw *results.Sweep) [][]string {
	rows := [][]string{{"step", sw.Load.Parameter, "complete", "throughput", "gain", "operations", "errors",
		"avg_ms", "p50_ms", "p95_ms", "p99_ms", "p999_ms", "max_ms",
		"read_throughput", "read_avg_ms", "read_p50_ms", "read_p95_ms", "read_p99_ms",
		"write_throughput", "write_avg_ms", "write_p50_ms", "write_p95_ms", "write_p99_ms",
		"client_cpu", "client_cores", "cpu_per_op_us", "dropped",
		"server_cpu_cores", "cache_used", "cache_dirty", "pages_read_per_s", "connections", "tickets_min", "lag_s", "verdict"}}
	if sw.Analysis == nil {
		return rows
	}
	for i, f := range sw.Analysis.Steps {
		l := f.Latency
		row := []string{strconv.Itoa(i + 1), num(f.Level), strconv.FormatBool(f.Complete), num(f.Throughput), optNum(f.Gain),
			strconv.FormatInt(f.Operations, 10), strconv.FormatInt(f.Errors, 10),
			num(l.Avg), num(l.P50), num(l.P95), num(l.P99), num(l.P999), num(l.Max)}
		for _, c := range []*results.Class{f.Read, f.Write} {
			if c == nil {
				row = append(row, "", "", "", "", "")
				continue
			}
			row = append(row, num(c.Throughput), num(c.Latency.Avg), num(c.Latency.P50), num(c.Latency.P95), num(c.Latency.P99))
		}
		row = append(row, optNum(f.ClientCPU), strconv.Itoa(f.ClientCores), optNum(f.CPUPerOpMicros), strconv.FormatInt(f.Dropped, 10))
		s := f.Server
		if s == nil {
			s = &results.ServerFigures{}
		}
		row = append(row, optNum(s.CPUCores), optNum(s.CacheUsed), optNum(s.CacheDirty), optNum(s.PagesReadPerSec), optNum(s.Connections), optInt(s.TicketsMin), optNum(s.LagSeconds), f.Verdict)
		rows = append(rows, row)
	}
	return rows
}

func operationRows(pre []string, res *results.Result) [][]string {
	// parent, last, names the transaction of a step: such rows are parts
	// of that transaction's row and must not be added to the others.
	head := append(prefixHead(pre), "operation", "type", "count", "errors", "throughput", "avg_ms", "p50_ms", "p95_ms", "p99_ms", "p999_ms", "max_ms")
	head = append(append(head, docsHead...), "parent")
	rows := [][]string{head}
	for _, op := range res.Operations {
		l := op.Latency
		row := append(append([]string(nil), pre...), op.Name, op.Type, strconv.FormatInt(op.Count, 10), strconv.FormatInt(op.Errors, 10),
			num(op.Throughput), num(l.Avg), num(l.P50), num(l.P95), num(l.P99), num(l.P999), num(l.Max))
		rows = append(rows, append(append(row, docsCells(op.Docs)...), op.Parent))
	}
	return rows
}

func intervalRows(pre []string, res *results.Result) [][]string {
	rows := [][]string{append(prefixHead(pre), "t_s", "dt_s", "operation", "count", "rate", "p50_ms", "p95_ms", "p99_ms", "max_ms", "errors")}
	rows[0] = append(append(rows[0], docsHead...), "parent")
	for _, iv := range res.Intervals {
		for _, op := range iv.Ops {
			row := append(append([]string(nil), pre...), num(iv.T), num(iv.Dt), op.Name, strconv.FormatInt(op.Count, 10),
				num(op.Rate), num(op.P50), num(op.P95), num(op.P99), num(op.Max), strconv.FormatInt(op.Errors, 10))
			rows = append(rows, append(append(row, docsCells(op.Docs)...), op.Parent))
		}
	}
	return rows
}

func serverRows(pre []string, res *results.Result) [][]string {
	rows := [][]string{append(prefixHead(pre), "t_s", "dt_s", "ops_per_s", "cache_used", "cache_dirty", "connections_current", "cpu_cores", "net_in_bytes_per_s", "net_out_bytes_per_s")}
	if res.Server == nil {
		return rows
	}
	for _, s := range res.Server.Samples {
		ops, used, dirty, conns, cpu, in, out := "", "", "", "", "", "", ""
		if s.Opcounters != nil && s.Dt > 0 {
			ops = num(float64(sumCounters(s.Opcounters)) / s.Dt)
		}
		if c := s.Cache; c != nil && c.MaxBytes != nil && *c.MaxBytes > 0 {
			if c.BytesInUse != nil {
				used = num(float64(*c.BytesInUse) / float64(*c.MaxBytes))
			}
			if c.DirtyBytes != nil {
				dirty = num(float64(*c.DirtyBytes) / float64(*c.MaxBytes))
			}
		}
		if c := s.Connections; c != nil && c.Current != nil {
			conns = strconv.FormatInt(*c.Current, 10)
		}
		if t, ok := s.CPU.Seconds(); ok && s.Dt > 0 {
			cpu = num(t / s.Dt)
		}
		if n := s.Network; n != nil && s.Dt > 0 {
			if n.BytesIn != nil {
				in = num(float64(*n.BytesIn) / s.Dt)
			}
			if n.BytesOut != nil {
				out = num(float64(*n.BytesOut) / s.Dt)
			}
		}
		rows = append(rows, append(append([]string(nil), pre...), num(s.T), num(s.Dt), ops, used, dirty, conns, cpu, in, out))
	}
	return rows
}

func prefixHead(pre []string) []string {
	if pre == nil {
		return nil
	}
	return []string{"step", "level"}
}

// num formats a number for CSV: at most three decimals, no exponent.
func num(f float64) string { return strconv.FormatFloat(results.Round3(f), 'f', -1, 64) }

func optNum(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(math.Round(*p*10000)/10000, 'f', -1, 64)
}

func optInt(p *int64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatInt(*p, 10)
}

// docsHead and docsCells are the CSV columns of an operation's documents.
var docsHead = []string{"returned", "matched", "modified", "upserted", "deleted", "inserted", "empty", "shaped"}

func docsCells(d *metrics.Docs) []string {
	if d == nil {
		d = &metrics.Docs{}
	}
	out := make([]string, 0, len(docsHead))
	for _, n := range []int64{d.Returned, d.Matched, d.Modified, d.Upserted, d.Deleted, d.Inserted, d.Empty, d.Shaped} {
		out = append(out, strconv.FormatInt(n, 10))
	}
	return out
}
