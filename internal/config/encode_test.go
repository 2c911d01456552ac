package config

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestEncodeReadsBack: what Encode writes parses into the configuration
// it was given (the password left out), and encoding that again writes
// the same bytes.
func TestEncodeReadsBack(t *testing.T) {
	v := func(text string) Value {
		x, err := ParseValue(text)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	cfg := Default()
	cfg.Name, cfg.Description = "shop", "a: colon, and quotes'"
	cfg.Connection.URI, cfg.Connection.Password = "mongodb://app:hunter2@db1:27017/?replicaSet=rs0", "hunter2"
	cfg.CapturedFrom = []string{"rs:abc"}
	cfg.Collections = []Collection{{Database: "shop", Name: "orders", Seed: 10,
		Template:   v("{_id: {$gen: objectId}, total: 2.0, at: 2026-01-02}"),
		Timeseries: &Timeseries{TimeField: "at", Granularity: "seconds"}}}
	cfg.Operations = []Operation{
		{Name: "byTotal", Type: "find", Collection: "orders", Weight: 0.75, Filter: v("{total: {$gte: 1.0}}"), Limit: Limit{Gen: v("{$gen: int, min: 1, max: 9}")}},
		{Name: "add", Type: "insertOne", Collection: "orders", Weight: 0.25},
	}
	cfg.Run.Rate, cfg.Run.Duration, cfg.Run.Seed = 120.5, Duration(time.Minute), 100
	var first bytes.Buffer
	if err := Encode(&first, cfg, Encoding{Header: "made by a test", RunNotes: map[string]string{"rate": "the rate"}}); err != nil {
		t.Fatal(err)
	}
	text := first.String()
	if strings.Contains(text, "hunter2") {
		t.Fatalf("the password is written:\n%s", text)
	}
	for _, want := range []string{"# made by a test", "# the rate", "total: 2.0", "capturedFrom"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	back, err := Parse(first.Bytes(), "back.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if errs := back.Validate(); len(errs) > 0 {
		t.Fatalf("%v\n%s", errs, text)
	}
	if back.Description != cfg.Description || back.Run.Rate != 120.5 || back.Run.Seed != 100 || back.Collections[0].Timeseries.TimeField != "at" ||
		back.Operations[0].Filter.String() != cfg.Operations[0].Filter.String() || !back.Operations[0].Limit.Generated() {
		t.Errorf("read back differently:\n%s", text)
	}
	var second bytes.Buffer
	if err := Encode(&second, back, Encoding{Header: "made by a test", RunNotes: map[string]string{"rate": "the rate"}}); err != nil {
		t.Fatal(err)
	}
	if second.String() != text {
		t.Errorf("a second encoding differs:\n%s\n----\n%s", text, second.String())
	}
}

// TestEncodeWrap: a long value is written level by level in block style,
// a short one stays on its line.
func TestEncodeWrap(t *testing.T) {
	cfg := Default()
	long, _ := ParseValue("{$set: {$gen: enum, values: [{a: {$gen: int, min: 1, max: 100000}}, {b: {$gen: int, min: 1, max: 100000}}, {c: 1}]}}")
	short, _ := ParseValue("{_id: 1}")
	cfg.Collections = []Collection{{Database: "d", Name: "c", Template: short}}
	cfg.Operations = []Operation{{Name: "u", Type: "updateOne", Weight: 1, Filter: short, Update: long}}
	var b bytes.Buffer
	if err := Encode(&b, cfg, Encoding{Wrap: 60}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"filter: {_id: 1}", "      $set:\n", "- {a: {$gen: int, min: 1, max: 100000}}"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in:\n%s", want, b.String())
		}
	}
}
