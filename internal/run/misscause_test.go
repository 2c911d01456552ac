package run

import (
	"fmt"
	"testing"

	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

// TestMissCausesReadEachOperationsOwnFilter: a transaction's step named
// like an operation of the mix lent that operation its filter, and the
// report said "the documents have no field v" of a collection whose
// template has v (issue 25 #13). Each operation is now judged by its own
// filter.
func TestMissCausesReadEachOperationsOwnFilter(t *testing.T) {
	cfg, plan := workloadtest.Compile(t, []byte(`
collections:
  - {database: d, name: a, template: {k: {$gen: key}, v: {$gen: int, min: 0, max: 9}}}
  - {database: d, name: b, template: {k: {$gen: key}}}
operations:
  - {name: look, type: findOne, collection: b, weight: 1, filter: {k: {$gen: key}}}
  - name: t
    type: transaction
    weight: 1
    steps:
      - {name: look, type: findOne, collection: a, filter: {v: 5}}
      - {name: miss, type: findOne, collection: a, filter: {nope: 5}}
`), "w.yaml")
	got := missCauses(cfg, plan, nil)
	want := map[string]string{"t/miss": "the documents have no field nope"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("causes %v, want %v", got, want)
	}
}
