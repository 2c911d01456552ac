package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/mempolicy"
)

var (
	readPreferences = []string{"primary", "primaryPreferred", "secondary", "secondaryPreferred", "nearest"}
	readConcerns    = []string{"local", "available", "majority", "linearizable", "snapshot"}
	compressorNames = []string{"zstd", "snappy", "zlib"}
)

// Validate fills derived defaults (operation names, an operation's collection
// when there is only one) and returns every problem found, in file order.
func (c *Config) Validate() Errors { return c.validate(true) }

// ValidateSettings checks what a command that runs no workload of its own
// reads (replay, capture, verify: the connection and the run's settings) by
// the rules Validate holds a workload's run to, so that --interval 0s is
// refused by replay as by run, before anything connects or is created.
func (c *Config) ValidateSettings() Errors { return c.validate(false) }

// validate is Validate, with the workload's own parts (collections,
// operations, watchers, how long it runs) when workload is set.
func (c *Config) validate(workload bool) Errors {
	var es Errors
	add := func(kind Kind, line int, field, format string, args ...any) {
		file := c.Source
		if where, ok := c.blame(field); ok {
			file, line, field = "", 0, where
		}
		es = append(es, &Error{Kind: kind, File: file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	c.validateConnection(add)
	if workload {
		c.validateCollections(add)
		c.validateOperations(add)
		c.validateLength(add)
	}
	c.validateRun(add)
	if workload {
		c.validateWatchers(add)
	}
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
	if err := CheckW(wc.W); err != nil {
		at, msg := field+".w", err.Error()
		if field == "connection.writeConcern" {
			at, msg = field, "w "+msg // blamed on --write-concern or its variable when one set it
		}
		add(Invalid, 0, at, "%s", msg)
	}
}

// CheckW refuses a write concern's w that reads as a number but not a
// whole one (1.5, 1e3, NaN): the driver would send it as a tag's name, and
// the server refuse every write. A whole number of members or a tag
// (majority, a tag set's name) passes.
func CheckW(w string) error {
	if _, err := strconv.Atoi(w); err == nil {
		return nil
	}
	if _, err := strconv.ParseFloat(w, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("%q is not a whole number of members: give one such as 1 or 2, or a tag such as majority", w)
	}
	return nil
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

// validateLength checks that a workload's run ends.
func (c *Config) validateLength(add adder) {
	r := &c.Run
	if r.Duration <= 0 && r.Operations <= 0 && len(r.Stages) == 0 {
		add(Invalid, 0, "run.duration", "give the run a duration or an operation count")
	}
}

func (c *Config) validateRun(add adder) {
	r := &c.Run
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
