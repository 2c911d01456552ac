package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadPicksBySchema: Read reads each kind of file by its schema, and
// refuses a version it does not read, naming it.
func TestReadPicksBySchema(t *testing.T) {
	dir := t.TempDir()
	ab := filepath.Join(dir, "ab.json")
	if err := WriteAB(ab, &AB{Verdict: ABSame, Summary: "same"}); err != nil {
		t.Fatal(err)
	}
	f, err := Read(ab)
	if err != nil || f.AB == nil || f.Result != nil || f.Sweep != nil || f.AB.Verdict != ABSame || f.AB.Schema != ABSchema {
		t.Fatalf("Read of an A/B file: %+v %v", f, err)
	}
	sw := filepath.Join(dir, "sweep.json")
	if err := WriteSweep(sw, &Sweep{}); err != nil {
		t.Fatal(err)
	}
	if f, err := Read(sw); err != nil || f.Sweep == nil || f.AB != nil || f.Result != nil {
		t.Fatalf("Read of a sweep: %+v %v", f, err)
	}
	for schema, want := range map[string]string{"mongoload.ab/v9": "not supported", "mongoload.sweep/v0": "not supported", "mongoload.results/v0": "not supported"} {
		p := filepath.Join(dir, "x.json")
		if err := os.WriteFile(p, []byte(`{"schema":"`+schema+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(p); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), schema) {
			t.Errorf("%s: %v", schema, err)
		}
	}
	if err := os.WriteFile(ab, []byte(`{"schema":"`+ABSchema+`","operations":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(ab); err == nil || !strings.Contains(err.Error(), "mongoload ab --out") {
		t.Errorf("an A/B file of another shape: %v", err)
	}
}
