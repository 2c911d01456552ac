package config

import "fmt"

// Timeseries makes a collection a time-series collection (MongoDB 5.0+):
// the server stores its measurements in buckets (system.buckets.NAME) by
// metaField and time, so inserts and queries cost nothing like a plain
// collection's. The fields are the create command's; ExpireAfterSeconds is
// the command's top-level option, given here beside the others so that a
// collection's time-series definition is one block.
type Timeseries struct {
	TimeField   string `yaml:"timeField,omitempty" json:"timeField"`
	MetaField   string `yaml:"metaField,omitempty" json:"metaField,omitempty"`
	Granularity string `yaml:"granularity,omitempty" json:"granularity,omitempty"`
	// BucketMaxSpanSeconds and BucketRoundingSeconds (MongoDB 6.3+) replace
	// granularity: both set, to the same value.
	BucketMaxSpanSeconds  int64 `yaml:"bucketMaxSpanSeconds,omitempty" json:"bucketMaxSpanSeconds,omitempty"`
	BucketRoundingSeconds int64 `yaml:"bucketRoundingSeconds,omitempty" json:"bucketRoundingSeconds,omitempty"`
	ExpireAfterSeconds    int64 `yaml:"expireAfterSeconds,omitempty" json:"expireAfterSeconds,omitempty"`
}

// Granularities are the time-series granularities the server takes.
var Granularities = []string{"seconds", "minutes", "hours"}

// maxBucketSpan is the server's limit on bucketMaxSpanSeconds: 365 days.
const maxBucketSpan = 31_536_000

// validateTimeseries checks a collection's time-series definition against
// the server's rules and the collection's own template: a timeField or
// metaField the template never writes would make every insert fail (the
// time field is required in each measurement).
func validateTimeseries(add adder, field string, col *Collection) {
	ts := col.Timeseries
	if ts == nil {
		return
	}
	field += ".timeseries"
	if ts.TimeField == "" {
		add(Invalid, col.Line, field+".timeField", "a time-series collection needs timeField: the template's field that holds each measurement's time")
	} else if !topLevel(col.Template, ts.TimeField) {
		add(Invalid, col.Line, field+".timeField", "timeField %q is not a field of the collection's template: add it (for example %s: {$gen: seriesTime}) or name the template's time field", ts.TimeField, ts.TimeField)
	}
	if ts.MetaField != "" && !topLevel(col.Template, ts.MetaField) {
		add(Invalid, col.Line, field+".metaField", "metaField %q is not a field of the collection's template: add it (for example %s: {$gen: series, count: 100}) or leave metaField out", ts.MetaField, ts.MetaField)
	}
	if ts.MetaField != "" && ts.MetaField == ts.TimeField {
		add(Invalid, col.Line, field+".metaField", "metaField and timeField are the same field %q: name two fields", ts.MetaField)
	}
	checkOneOf(add, field+".granularity", ts.Granularity, Granularities)
	span, round := ts.BucketMaxSpanSeconds, ts.BucketRoundingSeconds
	switch {
	case span == 0 && round == 0:
	case ts.Granularity != "":
		add(Invalid, col.Line, field+".granularity", "give granularity or bucketMaxSpanSeconds and bucketRoundingSeconds, not both")
	case span != round:
		add(Invalid, col.Line, field+".bucketRoundingSeconds", "bucketMaxSpanSeconds (%d) and bucketRoundingSeconds (%d) must be equal", span, round)
	case span < 1 || span > maxBucketSpan:
		add(Invalid, col.Line, field+".bucketMaxSpanSeconds", "%d is out of range: 1 to %d seconds (365 days)", span, maxBucketSpan)
	}
	if ts.ExpireAfterSeconds < 0 {
		add(Invalid, col.Line, field+".expireAfterSeconds", "%d is negative: give the seconds after which measurements expire, or leave it out", ts.ExpireAfterSeconds)
	}
	if !col.ShardKey.IsZero() {
		add(Invalid, col.Line, field, "mongoload does not shard time-series collections: leave shardKey out")
	}
}

// topLevel reports whether the document template v has the top-level
// field name (a template absent altogether has none).
func topLevel(v Value, name string) bool {
	for _, f := range v.Fields {
		if f.Key == name {
			return true
		}
	}
	return false
}

// String is the definition in one line, for messages.
func (ts *Timeseries) String() string {
	s := "timeField " + ts.TimeField
	if ts.MetaField != "" {
		s += ", metaField " + ts.MetaField
	}
	if ts.Granularity != "" {
		s += ", granularity " + ts.Granularity
	}
	if ts.BucketMaxSpanSeconds > 0 {
		s += fmt.Sprintf(", buckets of %ds", ts.BucketMaxSpanSeconds)
	}
	return s
}
