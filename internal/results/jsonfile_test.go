package results_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestJSONRoundTrip protects merging across processes: what is read back
// equals what was written, and its histogram gives the same p99 as the
// run's own totals.
func TestJSONRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		run  *resultstest.Run
	}{
		{"closed", resultstest.ClosedRun()}, // latency histograms only
		{"open", resultstest.OpenRun()},     // service histograms too
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "r.json")
			res := tt.run.Result()
			if err := results.WriteJSON(path, res); err != nil {
				t.Fatal(err)
			}
			got, err := results.ReadJSON(path)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := marshal(t, res), marshal(t, got); !bytes.Equal(a, b) {
				t.Errorf("read back differs:\n%s\nwant\n%s", b, a)
			}
			for i := range got.Operations {
				o := &got.Operations[i]
				h, err := o.LatencyHistogram()
				if err != nil {
					t.Fatal(err)
				}
				want := tt.run.Totals.Op(i).Latency
				if h.ValueAtQuantile(99) != want.ValueAtQuantile(99) || !h.Equals(want) {
					t.Errorf("%s: decoded p99 %d, want %d", o.Name, h.ValueAtQuantile(99), want.ValueAtQuantile(99))
				}
				svc, err := o.ServiceTimeHistogram()
				if err != nil || (svc == nil) != (tt.run.Totals.Op(i).Service == nil) {
					t.Errorf("%s: service histogram %v, %v", o.Name, svc, err)
				}
			}
			assertOnly(t, dir, "r.json")
		})
	}
}

// TestWriteJSONReplaces protects the atomic replace: an existing file is
// overwritten whole and no temporary file is left.
func TestWriteJSONReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if err := os.WriteFile(path, []byte("old contents, much longer than nothing at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteJSON(path, results.Build(resultstest.BaseInfo(results.LoadModel{Type: results.Closed}), nil, nil)); err != nil {
		t.Fatal(err)
	}
	if _, err := results.ReadJSON(path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want -rw-r--r--", fi.Mode(), err)
	}
	assertOnly(t, dir, "r.json")
}

// TestReadJSONRejects protects compare and merge from misreading files.
func TestReadJSONRejects(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		// a future version: say which versions are involved
		{"newer version", `{"schema":"mongoload.results/v2"}`, `schema "mongoload.results/v2" is not supported: this mongoload reads "mongoload.results/v1"`},
		// some other tool's JSON
		{"foreign schema", `{"schema":"k6/summary"}`, `not a mongoload results schema`},
		// a JSON file that is not a results file
		{"no schema", `{"operations":[]}`, `no "schema" field`},
		// a truncated or hand-broken file
		{"not JSON", `{"schema":`, `not a JSON results file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.json")
			if err := os.WriteFile(path, []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := results.ReadJSON(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("err = %v, want it to name the file and say %q", err, tt.want)
			}
		})
	}
	if _, err := results.ReadJSON(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("reading a missing file succeeded")
	}
}

// TestCheckWritable protects the pre-run check: it fails early, names the
// path, and leaves nothing behind.
func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string // want "" means no error
	}{
		// a new file in a writable directory
		{"writable", filepath.Join(dir, "r.json"), ""},
		// an existing file is fine: it will be replaced
		{"existing", file, ""},
		// a parent that is a regular file fails even for root
		{"parent is a file", filepath.Join(file, "r.json"), "not a directory"},
		// a missing directory is not created behind the user's back
		{"missing dir", filepath.Join(dir, "nope", "r.json"), "no such file"},
		// the path itself is a directory
		{"is a directory", dir, "is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := results.CheckWritable(tt.path)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.path)):
				t.Errorf("err = %v, want it to name %q and say %q", err, tt.path, tt.want)
			}
		})
	}
	assertOnly(t, dir, "plain-file")

	// WriteJSON fails the same way, without leaving anything.
	if err := results.WriteJSON(filepath.Join(file, "r.json"), results.Build(results.RunInfo{}, nil, nil)); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("WriteJSON under a file: %v", err)
	}
}

// assertOnly fails unless dir holds exactly the named files: no temporary
// or test files may be left behind.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("%s holds %v, want exactly %v", dir, got, names)
	}
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}
