package workload

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/builtin"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/generate"
)

func compileNamed(t testing.TB, name string) *Plan {
	t.Helper()
	data, ok := builtin.Get(name)
	if !ok {
		t.Fatalf("no built-in %s", name)
	}
	cfg, err := config.Parse(data, "builtin:"+name)
	if err != nil {
		t.Fatal(err)
	}
	if es := cfg.Validate(); len(es) > 0 {
		t.Fatal(es)
	}
	p, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func opNamed(t testing.TB, p *Plan, name string) *Op {
	t.Helper()
	for _, op := range p.Ops {
		if op.Name == name {
			return op
		}
	}
	t.Fatalf("no operation %s", name)
	return nil
}

// TestScanLimitDrawn protects YCSB E's scans: each call draws its limit
// uniformly in [1, maxscanlength], starts at a key, and allocates nothing.
func TestScanLimitDrawn(t *testing.T) {
	p := compileNamed(t, "ycsb-e")
	p.Collections[0].Keys.Reset(0, 1000)
	scan := opNamed(t, p, "SCAN")
	if scan.LimitGen == nil || scan.StaticOptions {
		t.Fatal("SCAN's limit is not drawn per call")
	}
	st := generate.NewState(1, 1)
	var r Request
	seen := map[int64]bool{}
	for range 5000 {
		r.Build(scan, st)
		if r.Limit < 1 || r.Limit > 100 {
			t.Fatalf("limit %d outside [1, 100]", r.Limit)
		}
		seen[r.Limit] = true
		r.Release()
	}
	if len(seen) != 100 {
		t.Errorf("%d distinct limits in 5000 draws, want all 100", len(seen))
	}
	gte := bson.Raw(r.Filter).Lookup("_id", "$gte")
	if s, ok := gte.StringValueOK(); !ok || len(s) < 5 || s[:4] != "user" {
		t.Errorf("filter %s, want {_id: {$gte: \"user...\"}}", bson.Raw(r.Filter))
	}
	if a := testing.AllocsPerRun(200, func() { r.Build(scan, st); r.Release() }); a > 0 {
		t.Errorf("%.1f allocations per scan build", a)
	}
}

// TestInsertKeysHeldUntilRelease protects "latest" from reading records
// whose insert is in flight: the key an INSERT takes is out of the
// queries' reach until the request is released.
func TestInsertKeysHeldUntilRelease(t *testing.T) {
	p := compileNamed(t, "ycsb-d")
	ks := p.Collections[0].Keys
	ks.Reset(0, 1000)
	st := generate.NewState(1, 1)
	var r Request
	r.Build(opNamed(t, p, "INSERT"), st)
	if _, end := ks.Bounds(); end != 1001 {
		t.Fatalf("the insert took no key: end %d", end)
	}
	if _, end := ks.Settled(); end != 1000 {
		t.Fatalf("key 1000 is reachable while its insert is in flight: settled end %d", end)
	}
	r.Release()
	if _, end := ks.Settled(); end != 1001 {
		t.Fatalf("key 1000 is not reachable after its insert: settled end %d", end)
	}
}
