package ycsb

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
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

// YAML renders w as a mongoload workload (Config), written by config's
// one writer.
func (w *Workload) YAML(o RenderOptions) []byte {
	cfg, err := w.Config(o)
	var b bytes.Buffer
	if err == nil {
		var always []string
		if !o.Builtin {
			always = []string{"concurrency"} // YCSB's threadcount, default 1, not mongoload's
		}
		err = config.Encode(&b, cfg, config.Encoding{Header: strings.TrimSpace(o.Comment), Always: always, Wrap: 100})
	}
	if err != nil {
		return []byte(fmt.Sprintf("# the YCSB workload could not be written (a mongoload bug): %v\n", err)) // refused by the reader
	}
	return b.Bytes()
}

// Config is w as a mongoload configuration: collection ycsb.usertable (or
// as configured) with YCSB's records, and one operation per YCSB
// operation with a positive proportion, named as YCSB names its
// measurements.
func (w *Workload) Config(o RenderOptions) (*config.Config, error) {
	var es []error
	val := func(text string) config.Value {
		if text == "" {
			return config.Value{} // left out
		}
		v, err := config.ParseValue(text)
		es = append(es, err)
		return v
	}
	cfg := config.Default()
	cfg.Name, cfg.Description = o.Name, o.Description
	if w.URL != "" && !o.Builtin {
		cfg.Connection.URI = w.URL
	}
	template := config.Value{Kind: config.KindDoc, Fields: []config.Field{{Key: "_id", Value: val(w.key(""))}}}
	for i := range w.FieldCount {
		template.Fields = append(template.Fields, config.Field{Key: w.field(i), Value: val(w.value())})
	}
	cfg.Collections = []config.Collection{{Database: w.Database, Name: w.Table, Template: template}}
	query := w.key(w.distribution(o.Builtin))
	op := func(name, typ string, weight float64) *config.Operation {
		cfg.Operations = append(cfg.Operations, config.Operation{Name: name, Type: typ, Weight: weight})
		return &cfg.Operations[len(cfg.Operations)-1]
	}
	if w.Read > 0 {
		r := op(OpRead, "findOne", w.Read)
		r.Filter, r.Projection = val("{_id: "+query+"}"), val(w.readProjection(true))
	}
	if w.Update > 0 {
		u := op(OpUpdate, "updateOne", w.Update)
		u.Filter, u.Update = val("{_id: "+query+"}"), val(w.update())
	}
	if w.Insert > 0 {
		op(OpInsert, "insertOne", w.Insert)
	}
	if w.Scan > 0 {
		sc := op(OpScan, "find", w.Scan)
		sc.Filter, sc.Sort = val("{_id: {$gte: "+query+"}}"), val("{_id: 1}")
		sc.Limit.Gen = val(intGen(w.MinScanLength, w.MaxScanLength, w.ScanLengthDistribution == "zipfian"))
		sc.Projection = val(w.readProjection(false))
	}
	if w.ReadModifyWrite > 0 {
		rmw := op(OpReadModifyWrite, "readModifyWrite", w.ReadModifyWrite)
		rmw.Filter, rmw.Projection, rmw.Update = val("{_id: "+query+"}"), val(w.readProjection(false)), val(w.update())
	}
	w.run(&cfg.Run, o.Builtin)
	return cfg, errors.Join(es...)
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

// readProjection is the fields a read returns: all (readallfields; ""
// leaves the projection out), named one by one (readallfieldsbyname,
// reads only), or one at random.
func (w *Workload) readProjection(read bool) string {
	fields := make([]string, w.FieldCount)
	for i := range fields {
		fields[i] = "{" + w.field(i) + ": 1}"
	}
	switch {
	case !w.ReadAllFields:
		return "{$gen: enum, values: [" + strings.Join(fields, ", ") + "]}"
	case read && w.ReadAllFieldsByName:
		for i := range fields {
			fields[i] = strings.Trim(fields[i], "{}")
		}
		return "{" + strings.Join(fields, ", ") + "}"
	}
	return ""
}

// update is the $set of an update: every field (writeallfields) or one
// at random.
func (w *Workload) update() string {
	fields := make([]string, w.FieldCount)
	for i := range fields {
		fields[i] = w.field(i) + ": " + w.value()
	}
	if w.WriteAllFields {
		return "{$set: {" + strings.Join(fields, ", ") + "}}"
	}
	for i := range fields {
		fields[i] = "{" + fields[i] + "}"
	}
	return "{$set: {$gen: enum, values: [" + strings.Join(fields, ", ") + "]}}"
}

// run sets the run: the records to load, and for a property file the
// client settings.
func (w *Workload) run(r *config.Run, builtin bool) {
	r.Seed = w.insertCount()
	if w.BatchSize > 0 {
		r.SeedBatchSize = int(w.BatchSize)
	}
	if builtin {
		return
	}
	r.Concurrency = int(w.ThreadCount)
	r.Operations = w.OperationCount
	switch {
	case w.MaxExecutionTime > 0:
		r.Duration = config.Duration(w.MaxExecutionTime)
	case w.OperationCount > 0:
		r.Duration = 0 // until the operation count
	}
	if w.Target > 0 {
		r.Rate = w.Target
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
