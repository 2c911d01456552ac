package workload

import (
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/config"
)

// TestMissCause: the cause of a filter that cannot reach the data is named
// from the workload alone, and a filter that reaches it gets none.
func TestMissCause(t *testing.T) {
	tests := []struct {
		name, filter, template string
		seeded                 int64
		want                   string // "" for no cause
		holds                  string // a field the collection's documents have, the template aside
	}{
		{"disjoint ranges", `{k: {$gen: int, min: 0, max: 999}}`, `{k: {$gen: int, min: 1000000, max: 2000000}}`, 500,
			"the filter does not reach the data (values 0-999, k seeded over 1000000-2000000 in 500 documents)", ""},
		{"plgm flight_id", `{flight_id: {$gen: int, min: 0, max: 999}}`, `{flight_id: {$gen: int}}`, 10000,
			"values 0-999, flight_id seeded over 0-2^31-1 in 10000 documents", ""},
		{"plgm fallback string _id", `{_id: {$gen: pattern, pattern: "val-###"}}`, `{name: {$gen: string}}`, 100,
			"the filter's _id values are strings while the documents' _id values are ObjectIds", ""},
		{"keys beyond the seeded", `{_id: {$gen: int, min: 5000, max: 9999}}`, `{_id: {$gen: key}}`, 1000,
			"(values 5000-9999, keys seeded 0-999)", ""},
		{"literal out of range", `{g: {$eq: 42}}`, `{g: {$gen: int, min: 0, max: 9}}`, 10, "values 42, g seeded 0-9", ""},
		{"missing field", `{nope: 1}`, `{g: 1}`, 10, "the documents have no field nope", ""},
		// Issue 25 #13: the collection's documents have v, though this
		// template does not make it (another workload's, someone else's).
		{"a field the collection holds", `{v: 1}`, `{g: 1}`, 10, "", "v"},
		{"another field the collection holds", `{v: 1}`, `{g: 1}`, 10, "the documents have no field v", "w"},
		{"keys reach", `{_id: {$gen: key}}`, `{_id: {$gen: key}}`, 1000, "", ""},
		{"dense range reaches", `{g: {$gen: int, min: 0, max: 9}}`, `{g: {$gen: int, min: 0, max: 9}}`, 1000, "", ""},
		{"half inside reaches", `{g: {$gen: int, min: 0, max: 19}}`, `{g: {$gen: int, min: 0, max: 9}}`, 1000, "", ""},
		{"operators are not judged", `{g: {$gt: 100}}`, `{g: {$gen: int, min: 0, max: 9}}`, 1000, "", ""},
		{"nested field", `{a.b: {$gen: int, min: 50, max: 60}}`, `{a: {b: {$gen: int, min: 0, max: 9}}}`, 100, "values 50-60, a.b seeded 0-9", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			holds := func(field string) bool { return field == tc.holds }
			got := MissCause(value(t, tc.filter), value(t, tc.template), tc.seeded, holds)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func value(t *testing.T, y string) config.Value {
	t.Helper()
	cfg, err := config.Parse([]byte("collections:\n  - name: c\n    template: "+y+"\n"), "test")
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Collections[0].Template
}
