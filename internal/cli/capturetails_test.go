package cli

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/testserver"
)

// The tails: an application of the test's own whose accounts belong to
// 200 tenants with a Zipf law (the hottest about a quarter), which looks
// its accounts up by tenant and status together (each tenant only ever
// with its own status) and by a creation range a day or a week wide, in
// bursts: 40 operations a second for three seconds, 160 for two.

const (
	tailTenants  = 200
	tailAccounts = 4000
)

var tailStatuses = []string{"active", "trial", "suspended", "closed"}

// tailTenant is the opaque name of the tenant of rank r.
func tailTenant(r int) string { return fmt.Sprintf("tn-%05d", 10000+(r*7919+1733)%90000) }

func tailLaw() []float64 {
	cum := make([]float64, tailTenants)
	acc := 0.0
	for r := range cum {
		acc += math.Pow(float64(r+1), -1.2)
		cum[r] = acc
	}
	for r := range cum {
		cum[r] /= acc
	}
	return cum
}

func drawRank(r *rand.Rand, cum []float64) int {
	return min(sort.SearchFloat64s(cum, r.Float64()), len(cum)-1)
}

var tailYear = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// runTails loads the accounts and runs two cycles of the bursts on db with
// the profiler at level 2, from a whole second of the clock.
func runTails(t *testing.T, ctx context.Context, cl *mongodb.Client, db string) {
	t.Helper()
	cum := tailLaw()
	r := rand.New(rand.NewPCG(21, 22))
	docs := bson.A{}
	for i := range tailAccounts {
		docs = append(docs, bson.D{{Key: "_id", Value: int32(i)}, {Key: "tenant", Value: tailTenant(drawRank(r, cum))},
			{Key: "status", Value: tailStatuses[r.IntN(4)]},
			{Key: "created", Value: tailYear.Add(time.Duration(r.Int64N(int64(365 * 24 * time.Hour))))}})
		if len(docs) == 1000 {
			if _, err := cl.Command(ctx, db, bson.D{{Key: "insert", Value: "accounts"}, {Key: "documents", Value: docs}}); err != nil {
				t.Fatal(err)
			}
			docs = bson.A{}
		}
	}
	if _, err := cl.Command(ctx, db, bson.D{{Key: "createIndexes", Value: "accounts"}, {Key: "indexes", Value: bson.A{
		bson.D{{Key: "key", Value: bson.D{{Key: "tenant", Value: 1}, {Key: "status", Value: 1}}}, {Key: "name", Value: "tenant_status"}},
		bson.D{{Key: "key", Value: bson.D{{Key: "created", Value: 1}}}, {Key: "name", Value: "created_1"}},
	}}}); err != nil {
		t.Fatal(err)
	}
	profileLevel(t, ctx, cl, db, 2)
	start := time.Now().Truncate(time.Second).Add(time.Second)
	var mu sync.Mutex
	var wg sync.WaitGroup
	due := make(chan time.Time)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 23))
			for at := range due {
				time.Sleep(time.Until(at)) // the application's own schedule
				mu.Lock()
				p, rk := r.Float64(), drawRank(r, cum)
				lo := tailYear.Add(time.Duration(r.Int64N(int64(350 * 24 * time.Hour))))
				wide := r.Float64() < 0.3
				mu.Unlock()
				filter := bson.D{{Key: "tenant", Value: tailTenant(rk)}, {Key: "status", Value: tailStatuses[rk%4]}}
				if p < 0.4 {
					width := 24 * time.Hour
					if wide {
						width *= 7
					}
					filter = bson.D{{Key: "created", Value: bson.D{{Key: "$gte", Value: lo}, {Key: "$lt", Value: lo.Add(width)}}}}
				}
				if _, err := cl.Command(ctx, db, bson.D{{Key: "find", Value: "accounts"}, {Key: "filter", Value: filter}, {Key: "batchSize", Value: 10000}}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	for s := range 10 {
		rate := 40
		if s%5 >= 3 {
			rate = 160
		}
		for i := range rate {
			due <- start.Add(time.Duration(s)*time.Second + time.Duration(i)*time.Second/time.Duration(rate))
		}
	}
	close(due)
	wg.Wait()
	if _, err := cl.Command(ctx, db, bson.D{{Key: "profile", Value: 0}}); err != nil {
		t.Fatal(err)
	}
}

// tailProfile is what a server's profiler recorded of the finds on the
// accounts, read by the test's own classification.
type tailProfile struct {
	finds    map[string]int     // per shape
	returned map[string]float64 // documents per find, its getMores included
	tenants  map[string]int     // finds by tenant
	perSec   map[int64]int
	first    time.Time
	last     time.Time
}

func readTails(t *testing.T, ctx context.Context, cl *mongodb.Client, db string) *tailProfile {
	t.Helper()
	p := &tailProfile{finds: map[string]int{}, returned: map[string]float64{}, tenants: map[string]int{}, perSec: map[int64]int{}}
	byCursor := map[int64]string{}
	var more []bson.Raw
	err := cl.AggregateEach(ctx, db, "system.profile", bson.A{bson.D{{Key: "$match", Value: bson.D{{Key: "ns", Value: db + ".accounts"}}}}}, func(e bson.Raw) error {
		op, _ := e.Lookup("op").StringValueOK()
		n, _ := e.Lookup("nreturned").AsInt64OK()
		if op == "getmore" {
			more = append(more, slices.Clone(e))
			return nil
		}
		f, ok := e.Lookup("command", "filter").DocumentOK()
		if op != "query" || !ok {
			return nil
		}
		shape := "by_tenant_status"
		if f.Lookup("created").Type != 0 {
			shape = "by_created"
		} else {
			p.tenants[f.Lookup("tenant").String()]++
		}
		p.finds[shape]++
		p.returned[shape] += float64(n)
		if id, ok := e.Lookup("cursorid").AsInt64OK(); ok && id != 0 {
			byCursor[id] = shape
		}
		ts := e.Lookup("ts").Time()
		p.perSec[ts.Unix()]++
		if p.first.IsZero() || ts.Before(p.first) {
			p.first = ts
		}
		if ts.After(p.last) {
			p.last = ts
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range more {
		id, _ := e.Lookup("cursorid").AsInt64OK()
		n, _ := e.Lookup("nreturned").AsInt64OK()
		if s, ok := byCursor[id]; ok {
			p.returned[s] += float64(n)
		}
	}
	for s := range p.returned {
		p.returned[s] /= float64(max(1, p.finds[s]))
	}
	return p
}

// topShare is the most frequent tenant's share of the finds by tenant.
func (p *tailProfile) topShare() float64 {
	top, n := 0, 0
	for _, c := range p.tenants {
		top, n = max(top, c), n+c
	}
	return float64(top) / float64(max(1, n))
}

// peakToMean is the busiest whole second over the mean rate of the window.
func (p *tailProfile) peakToMean() float64 {
	peak := 0
	for s, n := range p.perSec {
		if s > p.first.Unix() && s < p.last.Unix() { // whole seconds only
			peak = max(peak, n)
		}
	}
	total := 0
	for _, n := range p.perSec {
		total += n
	}
	return float64(peak) / (float64(total) / p.last.Sub(p.first).Seconds())
}

// TestCaptureKeepsTheTails: the application runs on server A with the
// profiler on; capture; seed and replay on a fresh server B; B's profiler,
// read by the test's own classification, is the oracle: the hot tenant's
// share of the finds within 0.5x..2x of A's, documents returned per shape
// within 0.8x..1.25x (the ranges included), the per-second curve's peak to
// mean within 20% of A's; and no tenant's name is written.
func TestCaptureKeepsTheTails(t *testing.T) {
	ctx := context.Background()
	uriA := testserver.URI(t)
	uriB, _ := testserver.Own(t)
	db := fmt.Sprintf("captails_%d", os.Getpid())
	a, b := connectTest(t, ctx, uriA), connectTest(t, ctx, uriB)
	t.Cleanup(func() { _, _ = a.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}}) })
	runTails(t, ctx, a, db)
	pa := readTails(t, ctx, a, db)

	w := filepath.Join(t.TempDir(), "tails.yaml")
	if code, out, errs := runCLI(t, ctx, nil, "capture", "--uri", uriA, "--database", db, "--out", w); code != 0 {
		t.Fatalf("capture exit %d: %s%s", code, out, errs)
	}
	text, _ := os.ReadFile(w)
	if regexp.MustCompile(`tn-\d{5}`).Match(text) { // the ranks' names are tn-r000, ...
		t.Errorf("a tenant's name was written:\n%s", text)
	}
	for _, want := range []string{"$gen: range", "repeatStages: true", "frequency law over ranks", "peak-to-mean"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the workload lacks %q:\n%s", want, text)
		}
	}
	if code, out, errs := runCLI(t, ctx, nil, "run", w, "--uri", uriB, "--duration", "1s", "--quiet"); code != 0 {
		t.Fatalf("seeding B: exit %d: %s%s", code, out, errs)
	}
	profileLevel(t, ctx, b, db, 2)
	if code, out, errs := runCLI(t, ctx, nil, "run", w, "--uri", uriB, "--duration", "10s", "--quiet"); code != 0 {
		t.Fatalf("replay on B: exit %d: %s%s", code, out, errs)
	}
	pb := readTails(t, ctx, b, db)
	if _, err := b.Command(ctx, db, bson.D{{Key: "profile", Value: 0}}); err != nil {
		t.Fatal(err)
	}
	t.Logf("A: %d finds, returned %v, hot %.3f, peak/mean %.2f; B: %d finds, returned %v, hot %.3f, peak/mean %.2f",
		pa.finds["by_tenant_status"]+pa.finds["by_created"], pa.returned, pa.topShare(), pa.peakToMean(),
		pb.finds["by_tenant_status"]+pb.finds["by_created"], pb.returned, pb.topShare(), pb.peakToMean())
	if x, y := pa.topShare(), pb.topShare(); y < 0.5*x || y > 2*x {
		t.Errorf("the hot tenant has %.1f%% of B's finds by tenant, %.1f%% of A's", y*100, x*100)
	}
	for _, s := range []string{"by_tenant_status", "by_created"} {
		if x, y := pa.returned[s], pb.returned[s]; y < 0.8*x || y > 1.25*x {
			t.Errorf("%s returned %.2f documents a find on B, %.2f on A", s, y, x)
		}
	}
	if x, y := pa.peakToMean(), pb.peakToMean(); math.Abs(y/x-1) > 0.2 {
		t.Errorf("peak-to-mean %.2f on B, %.2f on A", y, x)
	}
}
