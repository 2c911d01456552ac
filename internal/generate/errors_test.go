package generate

import (
	"errors"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/config"
)

// TestCompileErrors protects the error contract: every problem is a
// *config.Error of the right kind, on the right line, saying what is wrong.
func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		kind config.Kind
		line int
		msg  string
	}{
		// a typo in a generator name suggests the right one
		{"unknown generator", "a: 1\nb: {$gen: imt}", config.UnknownGenerator, 2, `unknown generator "imt" (did you mean "int"?)`},
		// a name nowhere near any generator gets no suggestion
		{"unknown generator far", "{$gen: xyzzyplugh}", config.UnknownGenerator, 1, `unknown generator "xyzzyplugh"`},
		// min above max names both
		{"min > max", "x: 1\ny:\n  $gen: int\n  min: 10\n  max: 5", config.Invalid, 3, `generator "int": min 10 is greater than max 5`},
		// an unknown parameter is reported on its own line with a suggestion
		{"unknown param", "$gen: int\nmin: 1\nmx: 5", config.Invalid, 3, `generator "int": unknown parameter "mx" (did you mean "max"?)`},
		// int bounds must fit in int32
		{"int out of range", "{$gen: int, max: 3000000000}", config.Invalid, 1, `max 3000000000 is out of range`},
		// a parameter of the wrong type
		{"not an integer", "{$gen: int, min: abc}", config.Invalid, 1, `min must be an integer`},
		// enum weights must match the values one for one
		{"weights length", "{$gen: enum, values: [a, b], weights: [1]}", config.Invalid, 1, `weights must be a list of 2 numbers`},
		// enum weights must not all be zero
		{"zero weight sum", "{$gen: enum, values: [a, b], weights: [0, 0]}", config.Invalid, 1, `positive, finite sum`},
		// negative weights are refused
		{"negative weight", "{$gen: enum, values: [a, b], weights: [1, -1]}", config.Invalid, 1, `weights[1] must be a non-negative number`},
		// enum needs values
		{"enum without values", "{$gen: enum}", config.Invalid, 1, `values must be a non-empty list`},
		// probabilities lie in [0, 1]
		{"null probability", "{$gen: int, nullProbability: 1.5}", config.Invalid, 1, `nullProbability must be between 0 and 1`},
		// missingProbability needs a field to leave out
		{"missing outside a field", "[{$gen: int, missingProbability: 0.5}]", config.Invalid, 1, `missingProbability applies only to document fields`},
		// length and min/max exclude each other
		{"length and min", "{$gen: string, length: 3, min: 1}", config.Invalid, 1, `either length or min and max`},
		// lengths are bounded by the BSON document limit
		{"length too big", "{$gen: binary, length: 999999999}", config.Invalid, 1, `length 999999999 is out of range`},
		// an empty charset has nothing to draw
		{"empty charset", `{$gen: string, charset: ""}`, config.Invalid, 1, `charset is empty`},
		// a pattern must not end in a lone backslash
		{"lone backslash", `{$gen: pattern, pattern: 'ab\'}`, config.Invalid, 1, `lone "\"`},
		// pattern is required
		{"pattern missing", `{$gen: pattern}`, config.Invalid, 1, `pattern is required`},
		// dates must parse
		{"bad date", `{$gen: date, from: yesterday}`, config.Invalid, 1, `from must be a date`},
		// from after to names both dates
		{"date order", `{$gen: date, from: 2025-01-01, to: 2024-01-01}`, config.Invalid, 1, `from 2025-01-01T00:00:00Z is after to 2024-01-01T00:00:00Z`},
		// decimals beyond what a double holds
		{"decimals", `{$gen: double, decimals: 20}`, config.Invalid, 1, `decimals 20 is out of range`},
		// decimal coefficients must fit in 64 bits
		{"decimal too wide", `{$gen: decimal, max: 1e30, scale: 2}`, config.Invalid, 1, `more than 18 significant digits`},
		// faker providers get suggestions too
		{"unknown provider", `{$gen: faker, provider: hackerphrse}`, config.Invalid, 1, `unknown provider "hackerphrse" (did you mean "hackerphrase"?)`},
		// key distributions get suggestions
		{"unknown distribution", `{$gen: key, distribution: zipfan}`, config.Invalid, 1, `unknown distribution "zipfan" (did you mean "zipfian"?)`},
		// key needs a known collection
		{"unknown collection", `{$gen: key, collection: nope}`, config.Invalid, 1, `unknown collection "nope"`},
		// prefix only makes sense for string keys
		{"prefix without string", `{$gen: key, prefix: u, as: long}`, config.Invalid, 1, `prefix and zeroPadding need as: string`},
		// a distribution's parameter on another distribution
		{"foreign distribution parameter", `{$gen: key, distribution: uniform, hotDataFraction: 0.1}`, config.Invalid, 1, `hotDataFraction is a parameter of distribution hotspot, not uniform`},
		// hotspot fractions are probabilities
		{"hotspot fraction", `{$gen: key, distribution: hotspot, hotOpnFraction: 2}`, config.Invalid, 1, `hotOpnFraction must be between 0 and 1`},
		// exponential percentile is a percentage below 100
		{"exponential percentile", `{$gen: key, distribution: exponential, percentile: 100}`, config.Invalid, 1, `percentile must be between 0 and 100`},
		// items belongs to the scrambled zipfian
		{"plain zipfian items", `{$gen: key, distribution: zipfian, scrambled: false, items: 10}`, config.Invalid, 1, `items applies to the scrambled zipfian only`},
		// length distributions are uniform or zipfian
		{"length distribution", `{$gen: binary, min: 1, max: 100, lengthDistribution: normal}`, config.Invalid, 1, `lengthDistribution must be uniform or zipfian`},
		// regex options are checked
		{"regex option", `{$gen: regex, pattern: a, options: q}`, config.Invalid, 1, `option 'q' is not one of`},
		// array needs a template for its elements
		{"array without of", `{$gen: array, length: 2}`, config.Invalid, 1, `of is required`},
		// errors deep inside nested values keep their own line
		{"nested", "a:\n  b:\n    - {$gen: enum, values: [{c: {$gen: nope}}]}", config.UnknownGenerator, 3, `unknown generator "nope"`},
		// string parameters must be strings
		{"not a string", `{$gen: pattern, pattern: 123}`, config.Invalid, 1, `pattern must be a string, got 123 (quote it)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile(parse(t, tt.src), testEnv(Query))
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("got %v (%T), want a *config.Error", err, err)
			}
			if ce.Kind != tt.kind || ce.Line != tt.line || !strings.Contains(ce.Msg, tt.msg) {
				t.Fatalf("got kind %d line %d %q, want kind %d line %d containing %q", ce.Kind, ce.Line, ce.Msg, tt.kind, tt.line, tt.msg)
			}
		})
	}
}

// TestCompileDocumentKinds protects the shape checks of CompileDocument and
// CompileArray.
func TestCompileDocumentKinds(t *testing.T) {
	if _, err := CompileDocument(parse(t, "[1, 2]"), nil); err == nil {
		t.Error("CompileDocument accepted an array")
	}
	if _, err := CompileArray(parse(t, "{a: 1}"), nil); err == nil {
		t.Error("CompileArray accepted a document")
	}
	d, err := CompileDocument(config.Value{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Append(nil, NewState(0, 0)); string(got) != "\x05\x00\x00\x00\x00" {
		t.Errorf("null compiled to %x, want the empty document", got)
	}
	if _, err := Compile(parse(t, "{a: {$gen: key}}"), nil); err == nil {
		t.Error("key compiled with no key space")
	}
	if _, err := Compile(config.Value{Kind: 99}, nil); err == nil {
		t.Error("unknown kind compiled")
	}
	if _, err := Compile(config.Value{Kind: config.KindScalar, Scalar: []int{1}}, nil); err == nil {
		t.Error("unknown scalar type compiled")
	}
	if _, err := Compile(config.Value{Kind: config.KindDoc, Fields: []config.Field{{Key: "a\x00b"}}}, nil); err == nil {
		t.Error("key with a NUL byte compiled")
	}
}
