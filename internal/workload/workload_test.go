package workload

import (
	"math"
	"math/rand/v2"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/builtin"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/generate"
)

func compileBuiltin(t testing.TB) *Plan {
	t.Helper()
	data, _ := builtin.Get("default")
	cfg, err := config.Parse(data, "builtin:default")
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

// TestMixFollowsWeights: over many picks each operation's share matches its
// weight (chi-square at the 0.1% level).
func TestMixFollowsWeights(t *testing.T) {
	p := compileBuiltin(t)
	r := rand.New(rand.NewPCG(1, 2))
	const n = 200000
	counts := make([]float64, len(p.Ops))
	for i := 0; i < n; i++ {
		counts[p.Mix.Pick(r)]++
	}
	var total, chi2 float64
	for _, op := range p.Ops {
		total += op.Weight
	}
	for i, op := range p.Ops {
		exp := n * op.Weight / total
		chi2 += (counts[i] - exp) * (counts[i] - exp) / exp
	}
	// 9 degrees of freedom: the 99.9th percentile of chi-square is 27.88.
	if chi2 > 27.88 {
		t.Fatalf("chi-square %.1f over 9 dof: picks %v do not follow the weights", chi2, counts)
	}
}

// TestMixSkewed: a tiny weight is still picked, in proportion.
func TestMixSkewed(t *testing.T) {
	m := NewMix([]*Op{{Weight: 999}, {Weight: 1}})
	r := rand.New(rand.NewPCG(3, 4))
	rare := 0
	for i := 0; i < 1_000_000; i++ {
		rare += m.Pick(r)
	}
	if math.Abs(float64(rare)-1000) > 150 {
		t.Fatalf("weight 1 of 1000 picked %d times in a million", rare)
	}
}

// TestDefaultWorkloadRequests: each operation builds well-formed BSON of the
// right parts, and document sizes are those of the seed's flights (~2 KB).
func TestDefaultWorkloadRequests(t *testing.T) {
	p := compileBuiltin(t)
	p.Collections[0].Keys.Reset(0, 1000)
	st := generate.NewState(1, 1)
	var r Request
	for _, op := range p.Ops {
		r.Build(op, st)
		for name, b := range map[string][]byte{"filter": r.Filter, "update": r.Update, "projection": r.Projection, "sort": r.Sort} {
			if b != nil {
				if err := bson.Raw(b).Validate(); err != nil {
					t.Errorf("%s: %s invalid: %v", op.Name, name, err)
				}
			}
		}
		switch op.Kind {
		case InsertMany:
			if len(r.Docs) != 10 {
				t.Errorf("%s: %d documents, want a batch of 10", op.Name, len(r.Docs))
			}
		case InsertOne:
			if len(r.Docs) != 1 {
				t.Errorf("%s: %d documents", op.Name, len(r.Docs))
			}
		case Aggregate:
			if len(r.Pipeline) == 0 {
				t.Errorf("%s: no pipeline", op.Name)
			}
		}
		for _, d := range r.Docs {
			if err := bson.Raw(d).Validate(); err != nil {
				t.Fatalf("%s: invalid document: %v", op.Name, err)
			}
		}
	}
	var size int
	for i := 0; i < 200; i++ {
		size += len(p.Collections[0].Doc.Append(nil, st))
	}
	if avg := size / 200; avg < 1200 || avg > 3000 {
		t.Fatalf("average flight document %d bytes, want about 2 KB like the seed's 1,925", avg)
	}
}

// TestRequestBuildAllocatesNothing: the hot path reuses the worker's buffers.
func TestRequestBuildAllocatesNothing(t *testing.T) {
	p := compileBuiltin(t)
	p.Collections[0].Keys.Reset(0, 1000)
	st := generate.NewState(1, 1)
	var r Request
	for _, op := range p.Ops { // grow the buffers once
		r.Build(op, st)
	}
	for _, op := range p.Ops {
		if op.Kind == InsertMany || op.Kind == InsertOne {
			continue // documents draw an objectId: checked in BenchmarkBuild
		}
		allocs := testing.AllocsPerRun(200, func() { r.Build(op, st) })
		if allocs > 0 {
			t.Errorf("%s: %.1f allocations per build", op.Name, allocs)
		}
	}
}

func BenchmarkBuild(b *testing.B) {
	p := compileBuiltin(b)
	p.Collections[0].Keys.Reset(0, 1_000_000)
	st := generate.NewState(1, 1)
	var r Request
	for _, op := range p.Ops {
		b.Run(op.Name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r.Build(op, st)
			}
		})
	}
}
