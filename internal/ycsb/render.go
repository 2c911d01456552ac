package ycsb

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The operation names, which are YCSB's measurement names: the YCSB
// report prints a section for each.
const (
	OpRead            = "READ"
	OpUpdate          = "UPDATE"
	OpInsert          = "INSERT"
	OpScan            = "SCAN"
	OpReadModifyWrite = "READ-MODIFY-WRITE"
)

// RenderOptions shape the mongoload workload rendered from a Workload.
type RenderOptions struct {
	Name, Description string
	// Comment is written at the top, each line prefixed with "# ".
	Comment string
	// Builtin leaves out what a built-in workload takes from mongoload's
	// defaults and flags: the connection, operation count, duration,
	// threads and rate, and the fixed zipfian item count (which depends on
	// them); the record count stays, as the seed.
	Builtin bool
}

// YAML renders w as a mongoload workload: collection ycsb.usertable (or
// as configured) with YCSB's records, and one operation per YCSB operation
// with a positive proportion, named as YCSB names its measurements.
func (w *Workload) YAML(o RenderOptions) []byte {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(o.Comment), "\n") {
		if line != "" {
			b.WriteString(strings.TrimRight("# "+line, " ") + "\n")
		}
	}
	fmt.Fprintf(&b, "name: %s\n", quote(o.Name))
	fmt.Fprintf(&b, "description: %s\n", quote(o.Description))
	if w.URL != "" && !o.Builtin {
		fmt.Fprintf(&b, "\nconnection:\n  uri: %s\n", strconv.Quote(w.URL))
	}
	fmt.Fprintf(&b, "\ncollections:\n  - database: %s\n    name: %s\n    template:\n", quote(w.Database), quote(w.Table))
	fmt.Fprintf(&b, "      _id: %s\n", w.key(""))
	for i := range w.FieldCount {
		fmt.Fprintf(&b, "      %s: %s\n", w.field(i), w.value())
	}
	b.WriteString("\noperations:\n")
	query := w.key(w.distribution(o.Builtin))
	if w.Read > 0 {
		w.op(&b, OpRead, "findOne", w.Read)
		fmt.Fprintf(&b, "    filter: {_id: %s}\n", query)
		w.readProjection(&b, true)
	}
	if w.Update > 0 {
		w.op(&b, OpUpdate, "updateOne", w.Update)
		fmt.Fprintf(&b, "    filter: {_id: %s}\n", query)
		w.update(&b)
	}
	if w.Insert > 0 {
		w.op(&b, OpInsert, "insertOne", w.Insert)
	}
	if w.Scan > 0 {
		w.op(&b, OpScan, "find", w.Scan)
		fmt.Fprintf(&b, "    filter: {_id: {$gte: %s}}\n", query)
		b.WriteString("    sort: {_id: 1}\n")
		fmt.Fprintf(&b, "    limit: %s\n", intGen(w.MinScanLength, w.MaxScanLength, w.ScanLengthDistribution == "zipfian"))
		w.readProjection(&b, false)
	}
	if w.ReadModifyWrite > 0 {
		w.op(&b, OpReadModifyWrite, "readModifyWrite", w.ReadModifyWrite)
		fmt.Fprintf(&b, "    filter: {_id: %s}\n", query)
		w.readProjection(&b, false)
		w.update(&b)
	}
	w.run(&b, o.Builtin)
	return []byte(b.String())
}

func (w *Workload) op(b *strings.Builder, name, typ string, weight float64) {
	fmt.Fprintf(b, "  - name: %s\n    type: %s\n    weight: %s\n", name, typ, strconv.FormatFloat(weight, 'g', -1, 64))
}

// key is the key generator of YCSB's record keys (buildKeyName), with the
// query distribution's parameters when dist is not empty.
func (w *Workload) key(dist string) string {
	var parts []string
	if dist != "" {
		parts = append(parts, "distribution: "+dist)
	}
	if !w.Ordered {
		parts = append(parts, "hashed: true")
	}
	parts = append(parts, "prefix: user", fmt.Sprintf("zeroPadding: %d", w.ZeroPadding))
	if w.InsertStart > 0 {
		parts = append(parts, fmt.Sprintf("offset: %d", w.InsertStart))
	}
	return "{$gen: key, " + strings.Join(parts, ", ") + "}"
}

// distribution is the request distribution with its parameters. The
// scrambled zipfian's item count follows YCSB: the records this client
// loads plus twice the inserts it expects, plus one; a built-in workload,
// whose counts come from flags, lets it be the key space at the first draw.
func (w *Workload) distribution(builtin bool) string {
	switch w.RequestDistribution {
	case "zipfian":
		if builtin || w.OperationCount == 0 {
			return "zipfian"
		}
		expected := int64(float64(w.OperationCount) * w.Insert * 2)
		return fmt.Sprintf("zipfian, items: %d", w.insertCount()+expected+1)
	case "hotspot":
		return fmt.Sprintf("hotspot, hotDataFraction: %s, hotOpnFraction: %s", num(w.HotspotDataFraction), num(w.HotspotOpnFraction))
	case "exponential":
		return fmt.Sprintf("exponential, percentile: %s, fraction: %s", num(w.ExponentialPercentile), num(w.ExponentialFrac))
	}
	return w.RequestDistribution
}

func (w *Workload) field(i int) string { return quote(w.FieldNamePrefix + strconv.Itoa(i)) }

// value is a field's value: bytes drawn as YCSB's RandomByteIterator
// draws them (printable: ' ' plus 5, 6 or 7 random bits), stored as binary
// like YCSB's MongoDB binding stores its byte arrays.
func (w *Workload) value() string {
	switch w.FieldLengthDistribution {
	case "uniform":
		return fmt.Sprintf("{$gen: binary, min: %d, max: %d, bytes: ycsb}", w.MinFieldLength, w.FieldLength)
	case "zipfian":
		return fmt.Sprintf("{$gen: binary, min: %d, max: %d, lengthDistribution: zipfian, bytes: ycsb}", w.MinFieldLength, w.FieldLength)
	}
	return fmt.Sprintf("{$gen: binary, length: %d, bytes: ycsb}", w.FieldLength)
}

// readProjection writes the fields a read returns: all (readallfields),
// named one by one (readallfieldsbyname, reads only), or one at random.
func (w *Workload) readProjection(b *strings.Builder, read bool) {
	switch {
	case !w.ReadAllFields:
		b.WriteString("    projection:\n      $gen: enum\n      values:\n")
		for i := range w.FieldCount {
			fmt.Fprintf(b, "        - {%s: 1}\n", w.field(i))
		}
	case read && w.ReadAllFieldsByName:
		fields := make([]string, w.FieldCount)
		for i := range fields {
			fields[i] = w.field(i) + ": 1"
		}
		fmt.Fprintf(b, "    projection: {%s}\n", strings.Join(fields, ", "))
	}
}

// update writes the $set of an update: every field (writeallfields) or
// one at random.
func (w *Workload) update(b *strings.Builder) {
	b.WriteString("    update:\n      $set:\n")
	if w.WriteAllFields {
		for i := range w.FieldCount {
			fmt.Fprintf(b, "        %s: %s\n", w.field(i), w.value())
		}
		return
	}
	b.WriteString("        $gen: enum\n        values:\n")
	for i := range w.FieldCount {
		fmt.Fprintf(b, "          - {%s: %s}\n", w.field(i), w.value())
	}
}

// run writes the run section: the records to load, and for a property
// file the client settings.
func (w *Workload) run(b *strings.Builder, builtin bool) {
	b.WriteString("\nrun:\n")
	fmt.Fprintf(b, "  seed: %d\n", w.insertCount())
	if w.BatchSize > 0 {
		fmt.Fprintf(b, "  seedBatchSize: %d\n", w.BatchSize)
	}
	if builtin {
		return
	}
	fmt.Fprintf(b, "  concurrency: %d\n", w.ThreadCount)
	if w.OperationCount > 0 {
		fmt.Fprintf(b, "  operations: %d\n", w.OperationCount)
	}
	switch {
	case w.MaxExecutionTime > 0:
		fmt.Fprintf(b, "  duration: %s\n", w.MaxExecutionTime)
	case w.OperationCount > 0:
		b.WriteString("  duration: 0s\n") // until the operation count
	}
	if w.Target > 0 {
		fmt.Fprintf(b, "  rate: %s\n", num(w.Target))
	}
}

// intGen is an integer generator over [lo, hi].
func intGen(lo, hi int64, zipfian bool) string {
	if zipfian {
		return fmt.Sprintf("{$gen: int, min: %d, max: %d, distribution: zipfian}", lo, hi)
	}
	return fmt.Sprintf("{$gen: int, min: %d, max: %d}", lo, hi)
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

var plain = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// quote writes s as a YAML scalar, quoted unless it is a plain word.
func quote(s string) string {
	if plain.MatchString(s) && s != "true" && s != "false" && s != "null" && s != "yes" && s != "no" {
		return s
	}
	return strconv.Quote(s)
}

// insertCount is the records this client loads: insertcount, by default
// recordcount - insertstart.
func (w *Workload) insertCount() int64 {
	if w.InsertCount < 0 {
		return max(w.RecordCount-w.InsertStart, 0)
	}
	return w.InsertCount
}
