// Package source reads what a deployment recorded, for capture: its
// profiler (read, or tailed over a window, turned on and restored with a
// marker left behind in case capture dies), its slow-query logs, exports
// of profiler documents and $queryStats, each reduced to Ops and a
// Source that says what it recorded.
package source

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Op is one recorded operation, whatever its source, reduced to what a
// workload operation needs.
type Op struct {
	DB, Coll   string
	Kind       string // find, insert, update, delete, aggregate, count, distinct, findAndModify
	Filter     bson.Raw
	Sort       bson.Raw
	Projection bson.Raw
	Limit      int64
	Update     bson.RawValue // a document, or an update pipeline (array)
	Multi      bool
	Upsert     bool
	Remove     bool // findAndModify with remove: true
	Pipeline   bson.Raw
	Key        string // distinct's field
	Inserted   int64  // documents an insert command wrote
	Returned   int64  // documents returned, getMores of its cursor included
	TS         time.Time
	Millis     int64
	Plan       string  // planSummary, when the source gives it
	Count      float64 // how many executions it stands for: 1, or $queryStats' execCount
	// Aggregate: Count is a source's total for the shape ($queryStats),
	// not executions at TS, and its literals are placeholders (weight.go).
	Aggregate bool
	// Raw is the source's entry in the profiler's form (a log line's too),
	// for capture --trace; valid only while the operation is handed on.
	Raw bson.Raw
}

// NS is the operation's namespace.
func (o *Op) NS() string { return o.DB + "." + o.Coll }

// Kinds of operations a workload can replay.
const (
	KindFind          = "find"
	KindInsert        = "insert"
	KindUpdate        = "update"
	KindDelete        = "delete"
	KindAggregate     = "aggregate"
	KindCount         = "count"
	KindDistinct      = "distinct"
	KindFindAndModify = "findAndModify"
)

// Tally counts what a source read and what it left out, and why, for the
// summary and the file's comments: nothing is dropped silently.
type Tally struct {
	Read        int            // entries read
	Used        int            // entries that became operations
	Garbage     int            // lines that did not parse
	Truncated   int            // commands the server cut ($truncated, 8.0's "truncated")
	TooLong     int            // lines over maxLine, skipped
	Own         int            // capture's own reads, which the profiler records too
	Odd         map[string]int // operations a workload cannot carry (a NaN literal, a date after 9999): why -> count
	Unsupported map[string]int // mapReduce, $where, eval, ...: skipped
	Skipped     map[string]int // other commands and namespaces: why -> count
	Lost        []string       // gaps: entries lost to a capped collection's cap
}

func (t *Tally) skip(why string) {
	if t.Skipped == nil {
		t.Skipped = map[string]int{}
	}
	t.Skipped[why]++
}

func (t *Tally) odd(why string) {
	if t.Odd == nil {
		t.Odd = map[string]int{}
	}
	t.Odd[why]++
}

func (t *Tally) unsupported(what string) {
	if t.Unsupported == nil {
		t.Unsupported = map[string]int{}
	}
	t.Unsupported[what]++
}

// add merges u into t.
func (t *Tally) add(u Tally) {
	t.Read += u.Read
	t.Used += u.Used
	t.Garbage += u.Garbage
	t.Truncated += u.Truncated
	t.TooLong += u.TooLong
	t.Own += u.Own
	for k, v := range u.Odd {
		for range v {
			t.odd(k)
		}
	}
	for k, v := range u.Unsupported {
		for range v {
			t.unsupported(k)
		}
	}
	for k, v := range u.Skipped {
		for range v {
			t.skip(k)
		}
	}
	t.Lost = append(t.Lost, u.Lost...)
}

func FirstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// BucketsPrefix starts the name of a time-series collection's buckets.
const BucketsPrefix = "system.buckets."

// BucketsOwner names the collection whose buckets coll is, or coll.
func BucketsOwner(coll string) string { return strings.TrimPrefix(coll, BucketsPrefix) }

// DocValue is d as a value (none when d is nil).
func DocValue(d bson.Raw) bson.RawValue {
	if d == nil {
		return bson.RawValue{}
	}
	return bson.RawValue{Type: bson.TypeEmbeddedDocument, Value: d}
}

// LeftOut says what the source left out, and why, in one line.
func (t Tally) LeftOut() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(t.Skipped)) {
		parts = append(parts, fmt.Sprintf("%d %s", t.Skipped[k], k))
	}
	for _, k := range slices.Sorted(maps.Keys(t.Unsupported)) {
		parts = append(parts, fmt.Sprintf("%d unsupported %s", t.Unsupported[k], k))
	}
	if t.Garbage > 0 {
		parts = append(parts, fmt.Sprintf("%d unreadable lines", t.Garbage))
	}
	if t.Truncated > 0 {
		parts = append(parts, fmt.Sprintf("%d truncated commands (the server logged only part of them: not replayed)", t.Truncated))
	}
	if t.Own > 0 {
		parts = append(parts, fmt.Sprintf("%d entries of capture's own reads (appName %s)", t.Own, AppName))
	}
	if t.TooLong > 0 {
		parts = append(parts, fmt.Sprintf("%d lines over %d MiB", t.TooLong, maxLine>>20))
	}
	for _, k := range slices.Sorted(maps.Keys(t.Odd)) {
		parts = append(parts, fmt.Sprintf("%d %s", t.Odd[k], k))
	}
	if len(parts) == 0 {
		return "none skipped"
	}
	return "skipped: " + strings.Join(parts, ", ")
}
