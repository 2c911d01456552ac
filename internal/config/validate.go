package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/mempolicy"
)

// OperationTypes are the operation types a workload may use.
var OperationTypes = []string{
	"find", "findOne", "insertOne", "insertMany", "updateOne", "updateMany",
	"replaceOne", "deleteOne", "deleteMany", "upsert", "findOneAndUpdate",
	"aggregate", "countDocuments", "readModifyWrite", "transaction",
}

// TransactionStyles are the ways a transaction's steps can be sent.
var TransactionStyles = []string{"perOperation", "batched"}

// templateRule says which templates an operation type needs and allows.
type templateRule struct{ required, allowed []string }

var opRules = map[string]templateRule{
	"find":             {allowed: []string{"filter", "projection", "sort", "limit"}},
	"findOne":          {allowed: []string{"filter", "projection", "sort"}},
	"insertOne":        {allowed: []string{"document"}},
	"insertMany":       {allowed: []string{"document", "batchSize"}},
	"updateOne":        {required: []string{"filter", "update"}, allowed: []string{"upsert"}},
	"updateMany":       {required: []string{"filter", "update"}, allowed: []string{"upsert"}},
	"upsert":           {required: []string{"filter", "update"}},
	"replaceOne":       {required: []string{"filter"}, allowed: []string{"document", "upsert"}},
	"deleteOne":        {required: []string{"filter"}},
	"deleteMany":       {required: []string{"filter"}},
	"findOneAndUpdate": {required: []string{"filter", "update"}, allowed: []string{"projection", "sort", "upsert"}},
	"aggregate":        {required: []string{"pipeline"}},
	"countDocuments":   {allowed: []string{"filter", "limit"}},
	// readModifyWrite reads one document (findOne) then updates it with
	// the same filter, timed as one operation (YCSB's READ-MODIFY-WRITE).
	"readModifyWrite": {required: []string{"filter", "update"}, allowed: []string{"projection"}},
}

var (
	readPreferences = []string{"primary", "primaryPreferred", "secondary", "secondaryPreferred", "nearest"}
	readConcerns    = []string{"local", "available", "majority", "linearizable", "snapshot"}
	compressorNames = []string{"zstd", "snappy", "zlib"}
)

// Validate fills derived defaults (operation names, an operation's collection
// when there is only one) and returns every problem found, in file order.
func (c *Config) Validate() Errors {
	var es Errors
	add := func(kind Kind, line int, field, format string, args ...any) {
		file := c.Source
		if where, ok := c.blame(field); ok {
			file, line, field = "", 0, where
		}
		es = append(es, &Error{Kind: kind, File: file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	c.validateConnection(add)
	c.validateCollections(add)
	c.validateOperations(add)
	c.validateRun(add)
	c.validateWatchers(add)
	c.checkNumbers(add)
	return es
}

type adder func(kind Kind, line int, field, format string, args ...any)

func (c *Config) validateConnection(add adder) {
	cn := &c.Connection
	if cn.URI == "" {
		add(BadURI, 0, "connection.uri", "no connection URI: set connection.uri, MONGOLOAD_URI or --uri")
	} else if !strings.HasPrefix(cn.URI, "mongodb://") && !strings.HasPrefix(cn.URI, "mongodb+srv://") {
		add(BadURI, 0, "connection.uri", "%q must start with mongodb:// or mongodb+srv://", RedactURI(cn.URI))
	}
	checkOneOf(add, "connection.readPreference", cn.ReadPreference, readPreferences)
	checkOneOf(add, "connection.readConcern", cn.ReadConcern, readConcerns)
	checkWriteConcern(add, "connection.writeConcern", cn.WriteConcern)
	checkOneOf(add, "connection.driverPath", cn.DriverPath, []string{DriverPathAPI, DriverPathFast})
	for _, name := range cn.Compressors {
		checkOneOf(add, "connection.compressors", name, compressorNames)
	}
	if cn.MaxPoolSize > 0 && cn.MinPoolSize > cn.MaxPoolSize {
		add(Invalid, 0, "connection.minPoolSize", "minPoolSize %d is larger than maxPoolSize %d", cn.MinPoolSize, cn.MaxPoolSize)
	}
}

func checkOneOf(add adder, field, v string, options []string) {
	if v == "" {
		return
	}
	for _, o := range options {
		if v == o {
			return
		}
	}
	add(Invalid, 0, field, "%q is not one of %s%s", v, strings.Join(options, ", "), DidYouMean(v, options))
}

func checkWriteConcern(add adder, field string, wc *WriteConcern) {
	if wc != nil && wc.WTimeout > 0 && wc.ClientTimeout > 0 {
		add(Invalid, 0, field+".wtimeout", "wtimeout is the old name of clientTimeout: give clientTimeout only")
	}
	if wc == nil || wc.W == "" {
		return
	}
	if n, err := strconv.Atoi(wc.W); err == nil && n < 0 {
		add(Invalid, 0, field+".w", "w must be 0 or more, or a tag such as majority")
	}
}

func (c *Config) validateCollections(add adder) {
	if len(c.Collections) == 0 {
		add(Invalid, 0, "collections", "the workload defines no collection: add one under collections:")
	}
	seen := map[string]bool{}
	for i := range c.Collections {
		col := &c.Collections[i]
		field := fmt.Sprintf("collections[%d]", i)
		if col.Database == "" || strings.ContainsAny(col.Database, `/\. "$`) {
			add(Invalid, col.Line, field+".database", "database %q is missing or not a valid database name", col.Database)
		}
		if col.Name == "" || strings.Contains(col.Name, "$") || strings.HasPrefix(col.Name, "system.") {
			add(Invalid, col.Line, field+".name", "collection name %q is missing or not allowed", col.Name)
		}
		if seen[col.Namespace()] {
			add(Invalid, col.Line, field, "collection %s is defined twice", col.Namespace())
		}
		seen[col.Namespace()] = true
		if col.Template.Kind != KindDoc && col.Template.Kind != KindNull {
			add(Invalid, col.Template.Line, field+".template", "a template is a document of fields")
		}
		for j, ix := range col.Indexes {
			validateIndex(add, fmt.Sprintf("%s.indexes[%d]", field, j), ix)
		}
		validateTimeseries(add, field, col)
	}
}

func validateIndex(add adder, field string, ix Index) {
	if ix.Keys.Kind != KindDoc || len(ix.Keys.Fields) == 0 {
		add(Invalid, ix.Line, field+".keys", "an index needs keys, for example keys: {flight_id: 1}")
		return
	}
	for _, k := range ix.Keys.Fields {
		switch v := k.Value.Scalar.(type) {
		case int64:
			if v == 1 || v == -1 {
				continue
			}
		case string:
			if v == "hashed" || v == "text" || v == "2dsphere" || v == "2d" {
				continue
			}
		}
		add(Invalid, k.Value.Line, field+".keys."+k.Key, "index direction must be 1, -1, hashed, text, 2d or 2dsphere, not %s", k.Value)
	}
	if ix.TTL > 0 && len(ix.Keys.Fields) != 1 {
		add(Invalid, ix.Line, field+".ttl", "a TTL index has exactly one key (a date field)")
	}
}

func (c *Config) validateOperations(add adder) {
	if len(c.Operations) == 0 {
		add(Invalid, 0, "operations", "the workload defines no operation: add one under operations:")
		return
	}
	var total float64
	names := map[string]bool{}
	for i := range c.Operations {
		op := &c.Operations[i]
		field := fmt.Sprintf("operations[%d]", i)
		if op.Name == "" {
			op.Name = fmt.Sprintf("%s_%d", op.Type, i+1)
		}
		if names[op.Name] {
			add(Invalid, op.Line, field+".name", "operation name %q is used twice", op.Name)
		}
		names[op.Name] = true
		total += op.Weight
		if op.Type == "transaction" {
			c.validateTransaction(add, field, op) // each step names its collection
			continue
		}
		c.validateOpCollection(add, field, op)
		rule, ok := opRules[op.Type]
		if !ok {
			add(UnknownOperation, op.Line, field+".type", "unknown operation type %q%s; valid types: %s",
				op.Type, DidYouMean(op.Type, OperationTypes), strings.Join(OperationTypes, ", "))
			continue
		}
		validateTemplates(add, field, op, rule)
	}
	if total <= 0 {
		add(Invalid, c.Operations[0].Line, "operations", "the weights sum to %g: give at least one operation a positive weight", total)
	}
}

func (c *Config) validateOpCollection(add adder, field string, op *Operation) {
	if op.Collection == "" {
		if len(c.Collections) == 1 {
			op.Collection = c.Collections[0].Name
			return
		}
		if len(c.Collections) > 1 {
			add(Invalid, op.Line, field+".collection", "say which collection this operation uses: the workload has %d", len(c.Collections))
		}
		return
	}
	if c.FindCollection(op.Collection) == nil {
		var names []string
		for _, col := range c.Collections {
			names = append(names, col.Name)
		}
		add(Invalid, op.Line, field+".collection", "no collection %q in this workload%s", op.Collection, DidYouMean(op.Collection, names))
	}
}

// FindCollection finds a collection by "name" or "database.name".
func (c *Config) FindCollection(ref string) *Collection {
	for i := range c.Collections {
		col := &c.Collections[i]
		if ref == col.Name || ref == col.Namespace() {
			return col
		}
	}
	return nil
}

func validateTemplates(add adder, field string, op *Operation, rule templateRule) {
	present := map[string]bool{
		"filter": !op.Filter.IsZero(), "update": !op.Update.IsZero(), "document": !op.Document.IsZero(),
		"pipeline": !op.Pipeline.IsZero(), "projection": !op.Projection.IsZero(), "sort": !op.Sort.IsZero(),
		"limit": !op.Limit.IsZero(), "batchSize": op.BatchSize != 0, "upsert": op.Upsert,
		"steps": len(op.Steps) > 0, "let": !op.Let.IsZero(), "styles": len(op.Styles) > 0,
		"readConcern": op.ReadConcern != "", "maxCommitTime": op.MaxCommitTime > 0,
	}
	for _, r := range rule.required {
		if !present[r] {
			add(Invalid, op.Line, field+"."+r, "%s needs %s", op.Type, r)
		}
	}
	allowed := append(append([]string{}, rule.required...), rule.allowed...)
	for name, ok := range present {
		if ok && !contains(allowed, name) {
			add(Invalid, op.Line, field+"."+name, "%s has no meaning for %s (it takes %s)", name, op.Type, strings.Join(allowed, ", "))
		}
	}
	if op.Type == "insertMany" && op.BatchSize == 0 {
		op.BatchSize = 10
	}
	if op.BatchSize < 0 || op.Limit.N < 0 {
		add(Invalid, op.Line, field, "batchSize and limit cannot be negative")
	}
	if op.Limit.Generated() && op.Type != "find" {
		add(Invalid, op.Limit.Gen.Line, field+".limit", "only find draws its limit per call: give %s a whole number", op.Type)
	}
	if op.Type == "deleteMany" && emptyFilter(op.Filter) {
		add(Invalid, op.Filter.Line, field+".filter", "deleteMany with an empty filter would delete the whole collection")
	}
	if !op.Pipeline.IsZero() && op.Pipeline.Kind != KindArray {
		add(Invalid, op.Pipeline.Line, field+".pipeline", "a pipeline is a list of stages")
	}
	checkOneOf(add, field+".readPreference", op.ReadPreference, readPreferences)
	checkWriteConcern(add, field+".writeConcern", op.WriteConcern)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *Config) validateRun(add adder) {
	r := &c.Run
	if r.Duration <= 0 && r.Operations <= 0 && len(r.Stages) == 0 {
		add(Invalid, 0, "run.duration", "give the run a duration or an operation count")
	}
	if r.Interval.D() < 10*time.Millisecond {
		add(Invalid, 0, "run.interval", "the reporting interval must be at least 10ms, not %s", r.Interval)
	}
	c.validateLoadModel(add)
	if r.MemoryLimit != "" {
		if _, err := mempolicy.ParseLimit(r.MemoryLimit); err != nil {
			add(Invalid, 0, "run.memoryLimit", "%v", err)
		}
	}
	if r.GOGC != "" {
		if _, err := mempolicy.ParseGOGC(r.GOGC); err != nil {
			add(Invalid, 0, "run.gogc", "%v", err)
		}
	}
	checkOneOf(add, "run.target", r.Target, []string{TargetMongoDB, TargetNoop})
	if r.Target == TargetNoop && len(r.Faults) > 0 {
		add(Invalid, 0, "run.faults", "a fault schedule needs a server: remove --fault, or run against one (--target mongodb)")
	}
	for i, f := range r.Faults {
		if fa, err := ParseFault(f); err != nil {
			add(Invalid, 0, fmt.Sprintf("run.faults[%d]", i), "%v", err)
		} else if r.Duration > 0 && fa.At >= r.Duration.D() {
			add(Invalid, 0, fmt.Sprintf("run.faults[%d]", i), "fault %q comes at or after the end of the %s run: give it an earlier time or a longer --duration", f, r.Duration)
		}
	}
	if r.Repeat > 0 && r.PassQuorum > r.Repeat {
		add(Invalid, 0, "run.passQuorum", "passQuorum %d must be between 0 and repeat %d", r.PassQuorum, r.Repeat)
	}
}

func (c *Config) validateLoadModel(add adder) {
	r := &c.Run
	if r.Rate > 0 && r.Sessions > 0 {
		add(Invalid, 0, "run.rate", "choose one load model: a target rate (open loop) or sessions, not both")
	}
	if r.RateScale > 0 && r.Rate == 0 {
		add(Invalid, 0, "run.rateScale", "rateScale multiplies a rate and the workload has none (a capture of slow operations only records the mix): give one with --rate")
	}
	checkOneOf(add, "run.arrival", r.Arrival, []string{"fixed", "poisson"})
	checkOneOf(add, "run.thinkDistribution", r.ThinkDist, []string{"fixed", "exponential"})
	if r.Sessions > 0 && r.ThinkTime <= 0 {
		add(Invalid, 0, "run.thinkTime", "sessions need a think time, for example --think-time 500ms")
	}
	if r.RepeatStages && len(r.Stages) == 0 {
		add(Invalid, 0, "run.repeatStages", "repeatStages repeats stages and there are none: give them with run.stages or --stages")
	}
	if len(r.Stages) > 0 && r.Sessions > 0 {
		add(Invalid, 0, "run.stages", "stages ramp a rate (open loop) or workers (closed loop), not sessions")
	}
	for i, st := range r.Stages {
		if st.Duration <= 0 {
			add(Invalid, 0, fmt.Sprintf("run.stages[%d]", i), "a stage needs a positive duration")
		}
	}
	if _, err := ParsePartition(r.Partition); err != nil {
		add(Invalid, 0, "run.partition", "%v", err)
	}
	if r.StartAt != "" {
		if _, err := time.Parse(time.RFC3339, r.StartAt); err != nil {
			add(Invalid, 0, "run.startAt", "%q is not an RFC 3339 time such as 2026-11-23T10:00:00Z", r.StartAt)
		}
	}
}

func (c *Config) validateTransaction(add adder, field string, op *Operation) {
	if len(op.Steps) == 0 {
		add(Invalid, op.Line, field+".steps", "a transaction needs steps: a list of operations run in order")
	}
	if !op.Let.IsZero() && op.Let.Kind != KindDoc {
		add(Invalid, op.Let.Line, field+".let", "let is a mapping of names to values, for example let: {card: {$gen: key, collection: cards}}")
	}
	checkOneOf(add, field+".readConcern", op.ReadConcern, readConcerns)
	checkWriteConcern(add, field+".writeConcern", op.WriteConcern)
	checkOneOf(add, field+".readPreference", op.ReadPreference, readPreferences)
	for _, st := range op.Styles {
		checkOneOf(add, field+".styles", st, TransactionStyles)
	}
	names := map[string]bool{}
	for j := range op.Steps {
		st := &op.Steps[j]
		sf := fmt.Sprintf("%s.steps[%d]", field, j)
		if st.Name == "" {
			st.Name = fmt.Sprintf("%s_%d", st.Type, j+1)
		}
		if names[st.Name] {
			add(Invalid, st.Line, sf+".name", "step name %q is used twice", st.Name)
		}
		names[st.Name] = true
		if st.Type == "transaction" || st.Type == "readModifyWrite" || len(st.Steps) > 0 {
			add(Invalid, st.Line, sf+".type", "a step is one CRUD operation, not %s", st.Type)
			continue
		}
		if st.WriteConcern != nil || st.ReadPreference != "" {
			add(Invalid, st.Line, sf, "a step runs with its transaction's write concern and read preference: set them on the transaction")
		}
		if st.Weight != 0 {
			add(Invalid, st.Line, sf+".weight", "steps have no weight: each runs once per transaction")
		}
		switch st.AbortIf {
		case "":
		case "noMatch":
			if !strings.HasPrefix(st.Type, "update") && !strings.HasPrefix(st.Type, "delete") && st.Type != "replaceOne" && st.Type != "findOneAndUpdate" && st.Type != "findOne" && st.Type != "upsert" {
				add(Invalid, st.Line, sf+".abortIf", "abortIf: noMatch needs a step that matches documents (update, delete, replace, findOne)")
			}
		default:
			add(Invalid, st.Line, sf+".abortIf", "abortIf takes noMatch, not %q", st.AbortIf)
		}
		c.validateOpCollection(add, sf, st)
		rule, ok := opRules[st.Type]
		if !ok {
			add(UnknownOperation, st.Line, sf+".type", "unknown operation type %q%s", st.Type, DidYouMean(st.Type, OperationTypes))
			continue
		}
		validateTemplates(add, sf, st, rule)
	}
}

// Deprecations lists, one line each, settings the workload uses under an
// old name that still works.
func (c *Config) Deprecations() []string {
	var out []string
	check := func(field string, wc *WriteConcern) {
		if wc != nil && wc.WTimeout > 0 {
			out = append(out, fmt.Sprintf("%s: %s.wtimeout is deprecated, rename it clientTimeout: it is a deadline the client puts on each write, not the server's write-concern wtimeout (see docs/workload.md#write-concern)", c.Source, field))
		}
	}
	check("connection.writeConcern", c.Connection.WriteConcern)
	for i := range c.Operations {
		op := &c.Operations[i]
		check(fmt.Sprintf("operations[%d].writeConcern", i), op.WriteConcern)
		for j := range op.Steps {
			check(fmt.Sprintf("operations[%d].steps[%d].writeConcern", i, j), op.Steps[j].WriteConcern)
		}
	}
	return out
}

// emptyFilter: a filter that is, or may draw (an enum of filters), the
// empty document.
func emptyFilter(f Value) bool {
	if f.Kind == KindDoc {
		return len(f.Fields) == 0
	}
	vals, ok := f.Param("values")
	return f.Kind == KindGen && ok && slices.ContainsFunc(vals.Items, func(v Value) bool { return v.Kind == KindDoc && len(v.Fields) == 0 })
}
