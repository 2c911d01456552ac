package results

import (
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Slow is the operations that took at least a threshold (--slow), grouped
// by shape: the collection, the operation type and the filter with its
// values replaced by their types, such as
// {flight_id: <int64>, seats_available: {$gt: <int32>}}. Only operations
// over the threshold are shaped, off the workers' path.
type Slow struct {
	ThresholdMs float64 `json:"thresholdMs"`
	// MaxShapes bounds Shapes; operations of further shapes go to Other.
	MaxShapes int `json:"maxShapes"`
	// Operations is how many measured operations reached the threshold,
	// errors included; Dropped of them could not be shaped because the
	// shaping queue was full (their count is still in Operations).
	Operations int64 `json:"operations"`
	Dropped    int64 `json:"dropped,omitempty"`
	// Shapes are ordered slowest first (by p99, then by count).
	Shapes []SlowShape `json:"shapes"`
	// Other gathers the operations of shapes beyond MaxShapes.
	Other *SlowShape `json:"other,omitempty"`
}

// SlowShape is one shape's slow operations.
type SlowShape struct {
	Namespace string `json:"namespace,omitempty"` // database.collection
	Type      string `json:"type,omitempty"`      // find, updateOne, aggregate, transaction, ...
	// Ops are the workload's operations that produced this shape.
	Ops   []string `json:"ops,omitempty"`
	Shape string   `json:"shape"`
	// Count is the slow operations that succeeded; their latencies are in
	// Latency and Histogram. Errors failed, after at least the threshold.
	Count   int64   `json:"count"`
	Errors  int64   `json:"errors,omitempty"`
	Latency Latency `json:"latency"`
	// Histogram is the shape's latency histogram (microseconds, 1 µs to 1 h,
	// 2 significant digits), HdrHistogram V2 compressed, base64.
	Histogram string `json:"histogram,omitempty"`
	// Sample is one filter (or pipeline) of this shape as sent, in relaxed
	// extended JSON, cut at 1 KB: what --explain ran.
	Sample  string   `json:"sample,omitempty"`
	Explain *Explain `json:"explain,omitempty"`
}

// Explain is what the server's explain (executionStats) said of a shape's
// sample, run once after the measured phase on a connection of its own.
type Explain struct {
	// As is the command explained: find, aggregate (also a countDocuments),
	// update, delete or findAndModify, as the operation sent it.
	As string `json:"as"`
	// Plan is the winning plan's stages from the top, such as
	// "FETCH > IXSCAN"; Scan is the leaf's access (IXSCAN, COLLSCAN,
	// IDHACK, ...), Index the index it used.
	Plan string `json:"plan,omitempty"`
	// Summary is the plan as the server's planSummary writes it: each
	// leaf with its key pattern, such as "IXSCAN { org: 1 }" or "COLLSCAN".
	Summary string `json:"summary,omitempty"`
	Scan    string `json:"scan,omitempty"`
	Index   string `json:"index,omitempty"`
	// KeysExamined, DocsExamined and Returned are executionStats' totals;
	// the Per figures divide by Returned (nil when nothing was returned).
	KeysExamined    int64    `json:"keysExamined"`
	DocsExamined    int64    `json:"docsExamined"`
	Returned        int64    `json:"returned"`
	KeysPerReturned *float64 `json:"keysPerReturned,omitempty"`
	DocsPerReturned *float64 `json:"docsPerReturned,omitempty"`
	ExecutionMs     int64    `json:"executionMs"`
	// CollScan flags a plan that scans the whole collection.
	CollScan bool `json:"collScan"`
	// Error is why there is no plan: the command was refused or timed
	// out, or (starting NotExplained) the shape has none to explain.
	Error string `json:"error,omitempty"`
}

// NotExplained starts the Error of a shape that has no plan (an insert),
// not an explain that failed.
const NotExplained = "not explained: "

// Failure is what stands in the place of the plan when there is none.
func (e Explain) Failure() string {
	if strings.HasPrefix(e.Error, NotExplained) {
		return e.Error
	}
	return "explain failed: " + e.Error
}

// LatencyOf summarizes a latency histogram of microseconds, as every
// Latency in a result is.
func LatencyOf(h *hdrhistogram.Histogram) Latency { return latencyOf(h) }
