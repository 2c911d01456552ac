package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

const partitioned = `
collections:
  - database: mltest
    name: parts
    template: {k: {$gen: key}, v: {$gen: int, min: 1, max: 9}}
    indexes: [{keys: {k: 1}, unique: true}]
operations:
  - {name: get, type: findOne, weight: 3, filter: {k: {$gen: key}}}
  - {name: put, type: insertOne, weight: 1}
`

// TestThreePartitionsMerge runs three partitioned processes together against
// one collection and merges their results: the counts add up, the merged
// percentiles are exactly those of all samples together, and the partitions
// never wrote the same key (a unique index would have refused it).
func TestThreePartitionsMerge(t *testing.T) {
	uri, _ := testserver.Own(t)
	p := writeFile(t, "w.yaml", partitioned)
	if code, _, stderr := runCLI(t, context.Background(), nil, "load", p, "--uri", uri, "--documents", "3000"); code != 0 {
		t.Fatal(stderr)
	}
	dir := t.TempDir()
	startAt := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339)
	var wg sync.WaitGroup
	parts := make([]string, 3)
	for i := range parts {
		parts[i] = filepath.Join(dir, fmt.Sprintf("part-%d.json", i))
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			code, _, stderr := runCLI(t, context.Background(), nil, "run", p, "--uri", uri, "--partition", fmt.Sprintf("%d/3", i),
				"--start-at", startAt, "--duration", "0", "--operations", "600", "--concurrency", "4", "--quiet", "--out", parts[i])
			if code != 0 {
				t.Errorf("partition %d: exit %d: %s", i, code, stderr)
			}
		}(i)
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	merged := filepath.Join(dir, "merged.json")
	args := append([]string{"merge", "--out", merged}, parts...)
	if code, _, stderr := runCLI(t, context.Background(), nil, args...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	m, err := results.ReadJSON(merged)
	if err != nil {
		t.Fatal(err)
	}
	if m.Totals.Operations != 1800 || m.Totals.Errors != 0 {
		t.Fatalf("merged %d operations, %d errors; want 1800 and no duplicate keys", m.Totals.Operations, m.Totals.Errors)
	}
	// The merged histogram is the sum of the parts', so its percentiles are
	// exactly those of every sample together.
	for _, name := range []string{"get", "put"} {
		all := hdrhistogram.New(1, 3_600_000_000, 3)
		for _, f := range parts {
			res, err := results.ReadJSON(f)
			if err != nil {
				t.Fatal(err)
			}
			h, err := opNamed(res, name).LatencyHistogram()
			if err != nil {
				t.Fatal(err)
			}
			all.Merge(h)
		}
		got, err := opNamed(m, name).LatencyHistogram()
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []float64{50, 95, 99, 99.9, 100} {
			if a, b := got.ValueAtQuantile(q), all.ValueAtQuantile(q); a != b {
				t.Errorf("%s p%g: merged %dµs, all samples %dµs", name, q, a, b)
			}
		}
	}
}

func opNamed(res *results.Result, name string) *results.Operation {
	for i := range res.Operations {
		if res.Operations[i].Name == name {
			return &res.Operations[i]
		}
	}
	panic("no operation " + name)
}
