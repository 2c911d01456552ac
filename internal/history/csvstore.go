package history

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
)

// A CSV store is a file in the layout `history --format csv` writes and
// Apache Otava's CSV source reads: a header line naming the columns, then
// a row per run: `time`, the attributes `label` and `workload` (both
// optional), and a column per metric, an empty cell where a metric was not
// measured. A series from Otava, a spreadsheet or another tool gets the
// same analysis and gate as mongoload's own store. It is read, never
// written: --history keeps results in a directory or a database.

// ErrReadOnly is an append to a CSV store.
var ErrReadOnly = errors.New("a CSV history is read-only")

// IsCSV reports whether spec names a CSV file rather than a store that
// --history writes.
func IsCSV(spec string) bool {
	return !IsURI(spec) && strings.EqualFold(filepath.Ext(spec), ".csv")
}

type csvStore struct{ entries []Entry }

func (csvStore) Close() {}

func (csvStore) Append(context.Context, Entry) error { return ErrReadOnly }

func (c csvStore) Entries(_ context.Context, q Query) ([]Entry, error) {
	var out []Entry
	for _, e := range c.entries {
		if q.selects(e) {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return a.Time.Compare(b.Time) })
	return out, nil
}

// openCSV reads the whole file: a refusal names its line and column.
func openCSV(path string) (Store, error) {
	f, err := os.Open(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%w: %s does not exist: give a CSV file (time, label, a column per metric) or the directory --history wrote to", ErrNotStore, path)
	case err != nil:
		return nil, fmt.Errorf("%w: %s: %v", ErrNotStore, path, err)
	}
	defer f.Close()
	entries, err := readCSV(path, f)
	if err != nil {
		return nil, err
	}
	return csvStore{entries: entries}, nil
}

// readCSV reads the rows of r (named path in refusals) as entries of the
// workload the `workload` column names, or else of the file's base name.
func readCSV(path string, r io.Reader) ([]Entry, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // a short row is refused here, naming its first missing column
	cr.TrimLeadingSpace = true
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%w: %s is empty: give a header line (time,label,METRIC...) and a row per run", ErrNothing, path)
	}
	if err != nil {
		return nil, csvRefusal(path, err)
	}
	cols, err := csvColumns(path, head)
	if err != nil {
		return nil, err
	}
	workload := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var out []Entry
	for {
		row, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, csvRefusal(path, err)
		}
		line, _ := cr.FieldPos(0)
		if len(row) != len(head) {
			return nil, shortRow(path, line, head, row)
		}
		e := Entry{Workload: workload, Metrics: map[string]float64{}}
		for i, cell := range row {
			at := func(kind config.Kind, format string, args ...any) error {
				return &config.Error{Kind: kind, File: path, Line: line, Field: fmt.Sprintf("column %d (%s)", i+1, head[i]), Msg: fmt.Sprintf(format, args...)}
			}
			switch cols[i] {
			case "time":
				if e.Time, err = parseCSVTime(cell); err != nil {
					return nil, at(config.Syntax, "%q is not a time: give an RFC 3339 time (2026-11-01T02:00:00Z) or a date (2026-11-01)", cell)
				}
			case "label":
				e.Label = cell
			case "workload":
				if cell != "" {
					e.Workload = cell
				}
			default:
				v, measured, err := parseCSVValue(cell)
				if err != nil {
					return nil, at(err.Kind, "%s", err.Msg)
				}
				if measured {
					e.Metrics[cols[i]] = v
				}
			}
		}
		out = append(out, e)
	}
}

// csvColumns is what each column of the header holds: "time", "label",
// "workload" or the metric it names. It refuses a header without a time
// or a metric, and a column named twice.
func csvColumns(path string, head []string) ([]string, error) {
	refuse := func(format string, args ...any) error {
		return &config.Error{Kind: config.Syntax, File: path, Line: 1, Msg: fmt.Sprintf(format, args...) +
			": the first line names the columns: time, label, then one per metric (the layout `mongoload history --format csv` writes)"}
	}
	cols := make([]string, len(head))
	metrics := 0
	for i, h := range head {
		name := strings.TrimSpace(h)
		switch strings.ToLower(name) {
		case "time", "label", "workload":
			name = strings.ToLower(name)
		case "":
			return nil, refuse("column %d has no name", i+1)
		default:
			metrics++
		}
		if slices.Contains(cols[:i], name) {
			return nil, refuse("column %d (%s) is named twice", i+1, name)
		}
		cols[i] = name
	}
	switch {
	case !slices.Contains(cols, "time"):
		return nil, refuse("no time column")
	case metrics == 0:
		return nil, refuse("no metric column")
	}
	return cols, nil
}

// shortRow refuses a row with more or fewer cells than the header names
// (a file cut short ends in one), naming the first missing column.
func shortRow(path string, line int, head, row []string) error {
	if len(row) > len(head) {
		return &config.Error{Kind: config.Syntax, File: path, Line: line, Field: fmt.Sprintf("column %d", len(head)+1),
			Msg: fmt.Sprintf("%d cells where the header names %d columns", len(row), len(head))}
	}
	return &config.Error{Kind: config.Syntax, File: path, Line: line, Field: fmt.Sprintf("column %d (%s)", len(row)+1, head[len(row)]),
		Msg: fmt.Sprintf("missing: the row has %d of the %d columns the header names (is the file cut short?)", len(row), len(head))}
}

// csvRefusal is a CSV syntax error (a quote left open by a file cut short)
// at its line and column.
func csvRefusal(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &config.Error{Kind: config.Syntax, File: path, Line: pe.Line, Field: fmt.Sprintf("column %d", pe.Column), Msg: pe.Err.Error() + " (is the file cut short?)"}
	}
	return fmt.Errorf("%w: %s: %v", ErrNotStore, path, err)
}

// parseCSVValue reads a metric's cell: empty is not measured, a number
// must be finite (NaN, Inf, 1e999: config.Invalid, exit 12), anything else
// is not a number (config.Syntax). The refusal has no place yet.
func parseCSVValue(cell string) (v float64, measured bool, refusal *config.Error) {
	t := strings.TrimSpace(cell)
	if t == "" {
		return 0, false, nil
	}
	v, err := strconv.ParseFloat(t, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0), err == nil && (math.IsNaN(v) || math.IsInf(v, 0)):
		return 0, false, &config.Error{Kind: config.Invalid, Msg: fmt.Sprintf("%q is not finite: give a finite number, or leave the cell empty where nothing was measured", cell)}
	case errors.Is(err, strconv.ErrRange):
		return 0, true, nil // too close to 0 for a float64: it is 0
	case err != nil:
		return 0, false, &config.Error{Kind: config.Syntax, Msg: fmt.Sprintf("%q is not a number: give a number, or leave the cell empty where nothing was measured", cell)}
	}
	return v, true, nil
}

// csvTimes are the time layouts a CSV's time column may use: what
// --format csv writes (RFC 3339) and what spreadsheets and Otava's
// examples write.
var csvTimes = []string{time.RFC3339Nano, "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05 -0700", "2006-01-02T15:04:05", "2006-01-02 15:04:05", time.DateOnly}

func parseCSVTime(cell string) (time.Time, error) {
	t := strings.TrimSpace(cell)
	for _, layout := range csvTimes {
		if v, err := time.Parse(layout, t); err == nil {
			return v, nil
		}
	}
	return time.Time{}, fmt.Errorf("not a time")
}
