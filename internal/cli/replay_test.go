package cli

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// The application the replay tests capture: two bursts of burstOps at
// burstRate with an idle gap between them, finds, updates and inserts
// with literal values of its own (the insert's document in the command's
// body, where the profiler records it).
const (
	burstOps  = 150
	burstRate = 250.0
	burstIdle = 1500 * time.Millisecond
	burstDocs = 500
)

func burstBurst() time.Duration {
	return time.Duration(float64(burstOps) / burstRate * float64(time.Second))
}

// burstLoad makes rp.events afresh: burstDocs documents, the same on
// every server.
func burstLoad(t *testing.T, ctx context.Context, cl *mongodb.Client) {
	t.Helper()
	dropEvents(t, ctx, cl)
	docs := bson.A{}
	for i := range burstDocs {
		docs = append(docs, bson.D{{Key: "_id", Value: int32(i)}, {Key: "g", Value: fmt.Sprint("g", i%7)}, {Key: "note", Value: ""}})
	}
	if _, err := cl.Command(ctx, "rp", bson.D{{Key: "insert", Value: "events"}, {Key: "documents", Value: docs}}); err != nil {
		t.Fatal(err)
	}
}

// dropEvents drops rp.events, once more if the first try meets a
// connection that a paused server reset.
func dropEvents(t *testing.T, ctx context.Context, cl *mongodb.Client) {
	t.Helper()
	for try := 0; ; try++ {
		_, err := cl.Command(ctx, "rp", bson.D{{Key: "drop", Value: "events"}})
		if err == nil || strings.Contains(err.Error(), "NamespaceNotFound") || strings.Contains(err.Error(), "ns not found") {
			return
		}
		if try > 0 {
			t.Fatalf("drop rp.events: %v", err)
		}
	}
}

// burstApp runs the schedule from 4 goroutines, each operation at its
// own time (open loop).
func burstApp(t *testing.T, ctx context.Context, cl *mongodb.Client) {
	t.Helper()
	type op struct {
		at  time.Duration
		cmd bson.D
	}
	r := rand.New(rand.NewPCG(5, 7))
	var ops []op
	for b := range 2 {
		base := time.Duration(b) * (burstBurst() + burstIdle)
		for i := range burstOps {
			at := base + time.Duration(float64(i)/burstRate*float64(time.Second))
			k := int32(r.IntN(burstDocs))
			var cmd bson.D
			switch i % 4 {
			case 0:
				cmd = bson.D{{Key: "find", Value: "events"}, {Key: "filter", Value: bson.D{{Key: "_id", Value: k}}}}
			case 1:
				cmd = bson.D{{Key: "find", Value: "events"}, {Key: "filter", Value: bson.D{{Key: "g", Value: fmt.Sprint("g", k%7)}}}}
			case 2:
				cmd = bson.D{{Key: "update", Value: "events"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: k}}},
					{Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "note", Value: fmt.Sprint("note-", b, "-", i)}}}}}}}}}
			default:
				cmd = bson.D{{Key: "insert", Value: "events"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: int32(10_000 + b*1000 + i)}, {Key: "g", Value: "new"}, {Key: "note", Value: fmt.Sprint("ins-", i)}}}}}
			}
			ops = append(ops, op{at, cmd})
		}
	}
	start := time.Now().Add(50 * time.Millisecond)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(ops); i += 4 {
				time.Sleep(time.Until(start.Add(ops[i].at))) // the application's own schedule
				if _, err := cl.Command(ctx, "rp", ops[i].cmd); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}

// burstProfile turns rp's profiler to level (slowms 0: every operation),
// on an emptied, roomy system.profile.
func burstProfile(t *testing.T, ctx context.Context, cl *mongodb.Client, level int) {
	t.Helper()
	if _, err := cl.Command(ctx, "rp", bson.D{{Key: "profile", Value: 0}}); err != nil {
		t.Fatal(err)
	}
	if level == 0 {
		return
	}
	_, _ = cl.Command(ctx, "rp", bson.D{{Key: "drop", Value: "system.profile"}})
	_, _ = cl.Command(ctx, "rp", bson.D{{Key: "create", Value: "system.profile"}, {Key: "capped", Value: true}, {Key: "size", Value: 64 << 20}})
	if _, err := cl.Command(ctx, "rp", bson.D{{Key: "profile", Value: level}, {Key: "slowms", Value: 0}}); err != nil {
		t.Fatal(err)
	}
}

// profiledOps is the oracle: what a server's profiler recorded on
// rp.events, as a multiset of operations with their literals, and the
// operations' start times (ts less millis) from the first, sorted.
func profiledOps(t *testing.T, ctx context.Context, cl *mongodb.Client) (map[string]int, []time.Duration) {
	t.Helper()
	set := map[string]int{}
	var starts []time.Time
	err := cl.AggregateEach(ctx, "rp", "system.profile", bson.A{}, func(d bson.Raw) error {
		if ns, _ := d.Lookup("ns").StringValueOK(); ns != "rp.events" {
			return nil
		}
		op, _ := d.Lookup("op").StringValueOK()
		cmd, _ := d.Lookup("command").DocumentOK()
		var key string
		switch op {
		case "query":
			key = "find " + cmd.Lookup("filter").String()
		case "update":
			key = "update " + cmd.Lookup("q").String() + " " + cmd.Lookup("u").String()
		case "insert":
			key = "insert " + cmd.Lookup("documents").String()
		default:
			return nil
		}
		set[key]++
		ts, _ := d.Lookup("ts").DateTimeOK()
		starts = append(starts, time.UnixMilli(ts).Add(-time.Duration(mongodb.Number(d.Lookup("millis")))*time.Millisecond))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	var offs []time.Duration
	for _, s := range starts {
		offs = append(offs, s.Sub(starts[0]))
	}
	return set, offs
}

// same is the share of a's operations that b holds, as multisets.
func same(a, b map[string]int) float64 {
	n, total := 0, 0
	for k, v := range a {
		n += min(v, b[k])
		total += v
	}
	return float64(n) / float64(max(total, 1))
}

// TestReplayReproducesTheApplication: the application runs its bursts on
// server A with the profiler on, capture --trace records it, and B, loaded
// with the same data, gets the replay with its profiler on. B's profiler
// is the oracle: the same operations with the same literals (>= 99% as a
// multiset), nothing in A's idle window, at --speed 2 in about half the
// span, and a 500 ms pause of B shows in the latency from the schedule.
func TestReplayReproducesTheApplication(t *testing.T) {
	ctx := context.Background()
	uriA := testserver.URI(t)
	uriB, pidB := testserver.Own(t)
	clA, clB := connectTest(t, ctx, uriA), connectTest(t, ctx, uriB)
	burstLoad(t, ctx, clA)
	burstProfile(t, ctx, clA, 2)
	burstApp(t, ctx, clA)
	burstProfile(t, ctx, clA, 0)
	opsA, startsA := profiledOps(t, ctx, clA)
	if n := len(startsA); n != 2*burstOps {
		t.Fatalf("A's profiler holds %d operations of the application's %d", n, 2*burstOps)
	}

	dir := t.TempDir()
	tr := filepath.Join(dir, "rp.trace")
	if code, _, stderr := runCLI(t, ctx, nil, "capture", "--uri", uriA, "--database", "rp", "--trace", tr, "--out", filepath.Join(dir, "w.yaml")); code != 2 || !strings.Contains(stderr, "--keep-values") {
		t.Fatalf("capture --trace without --keep-values: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, ctx, nil, "capture", "--uri", uriA, "--database", "rp", "--trace", tr, "--keep-values", "--out", filepath.Join(dir, "w.yaml")); code != 0 {
		t.Fatalf("capture --trace: exit %d\n%s", code, stderr)
	}

	replay := func(speed string, during func()) *results.Result {
		t.Helper()
		burstProfile(t, ctx, clB, 0)
		burstLoad(t, ctx, clB)
		burstProfile(t, ctx, clB, 2)
		out := filepath.Join(t.TempDir(), "r.json")
		args := []string{"replay", tr, "--uri", uriB, "--allow-existing", "--speed", speed, "--out", out, "--quiet", "--interval", "100ms"}
		r := runInBackground(ctx, args...)
		if during != nil {
			during()
		}
		if code, stdout, stderr := r.wait(); code != 0 {
			t.Fatalf("replay --speed %s: exit %d\n%s\n%s", speed, code, stdout, stderr)
		}
		res, err := results.ReadJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// timing says how B's replay at speed departs from A's schedule ("" when
	// it keeps it): at speed 1 nothing in A's idle window (its largest gap,
	// 0.3 s in from each end, B's starts aligned on A's by their median
	// offset, so that one late first operation does not move the frame); at
	// speed 2 about half A's span.
	timing := func(speed float64, startsB []time.Duration) string {
		span := func(s []time.Duration) time.Duration { return s[len(s)-1] }
		if speed != 1 {
			if r := float64(span(startsB)) / float64(span(startsA)); r < 0.35 || r > 0.65 {
				return fmt.Sprintf("at --speed %g the replay spanned %v, %.2fx A's %v", speed, span(startsB), r, span(startsA))
			}
			return ""
		}
		g0, g1 := time.Duration(0), time.Duration(0)
		for i := 1; i < len(startsA); i++ {
			if startsA[i]-startsA[i-1] > g1-g0 {
				g0, g1 = startsA[i-1], startsA[i]
			}
		}
		var offs []time.Duration
		for i := range min(len(startsA), len(startsB)) {
			offs = append(offs, startsB[i]-startsA[i])
		}
		slices.Sort(offs)
		off := offs[len(offs)/2]
		in := 0
		for _, s := range startsB {
			if s-off > g0+300*time.Millisecond && s-off < g1-300*time.Millisecond {
				in++
			}
		}
		if in > len(startsB)/20 {
			return fmt.Sprintf("%d of B's %d operations started in A's idle window %v..%v (B's clock less %v)", in, len(startsB), g0, g1, off)
		}
		return ""
	}
	// replayed replays at speed and checks B's profiler: the literals at
	// once, the timing with a second try on a fresh B (a busy 2-core
	// machine is noisy), as the acceptance check does.
	replayed := func(t *testing.T, speed float64) *results.Result {
		var why []string
		for range 2 {
			res := replay(fmt.Sprint(speed), nil)
			opsB, startsB := profiledOps(t, ctx, clB)
			if m := same(opsA, opsB); m < 0.99 || len(startsB) != len(startsA) {
				t.Fatalf("B holds %.1f%% of A's operations with their literals (%d on B, %d on A)", 100*m, len(startsB), len(startsA))
			}
			w := timing(speed, startsB)
			if w == "" {
				return res
			}
			if rp := res.Replay; rp != nil && rp.SendLag != nil {
				w += fmt.Sprintf(" (send lag p99 %.1f ms, max %.1f ms)", rp.SendLag.P99, rp.SendLag.Max)
			}
			why = append(why, w)
		}
		t.Errorf("%s", strings.Join(why, "; then "))
		return nil
	}

	t.Run("speed 1: the same operations, the idle window idle", func(t *testing.T) {
		if res := replayed(t, 1); res != nil {
			if rp := res.Replay; rp == nil || rp.Sent != int64(2*burstOps) || rp.SendLag == nil {
				t.Errorf("the results file's replay section: %+v", rp)
			}
		}
	})
	t.Run("speed 2: half the span", func(t *testing.T) { replayed(t, 2) })
	t.Run("a pause of the server shows in the latency from the schedule", func(t *testing.T) {
		const pause = 500 * time.Millisecond
		var paused time.Time
		t.Cleanup(func() { _ = syscall.Kill(pidB, syscall.SIGCONT) })
		res := replay("1", func() {
			// Strike once the replay is provably in its first burst: its
			// first inserts are on B (setup's own reads are not the replay's).
			testserver.Await(t, time.Minute, "the replay's first inserts on B", func() bool {
				n, err := clB.CountDocuments(ctx, "rp", "events", bson.D{{Key: "_id", Value: bson.D{{Key: "$gte", Value: 10_000}}}})
				return err == nil && n >= 2
			})
			paused = time.Now()
			if err := syscall.Kill(pidB, syscall.SIGSTOP); err != nil {
				t.Fatalf("SIGSTOP: %v", err)
			}
			time.Sleep(pause) // the fault's own length
			_ = syscall.Kill(pidB, syscall.SIGCONT)
		})
		if max := res.Totals.Latency.Max; max < 0.8*float64(pause.Milliseconds()) {
			var per []string
			for _, iv := range res.Intervals {
				n := int64(0)
				for _, o := range iv.Ops {
					n += o.Count
				}
				per = append(per, fmt.Sprintf("%.2fs:%d", iv.T, n))
			}
			t.Errorf("B paused for %v during the replay (%v after its start), yet the longest latency from the schedule is %.1f ms; per interval %v; errors %v %v", pause, paused.Sub(res.StartedAt), max, per, res.Totals.ErrorsByClass, res.Notes)
		}
		if got := res.Totals.Operations + res.Totals.Errors; got != int64(2*burstOps) {
			t.Errorf("%d operations measured of the trace's %d", got, 2*burstOps)
		}
	})
	t.Run("the captured deployment is refused, untouched", func(t *testing.T) {
		before, err := clA.CountDocuments(ctx, "rp", "events", bson.D{})
		if err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCLI(t, ctx, nil, "replay", tr, "--uri", uriA, "--allow-existing")
		after, _ := clA.CountDocuments(ctx, "rp", "events", bson.D{})
		if code != 19 || !strings.Contains(stderr, "--write-to-source") || after != before {
			t.Errorf("replay onto its source: exit %d, %d -> %d documents\n%s", code, before, after, stderr)
		}
	})
	t.Run("a cut trace replays what reads and says so; a missing collection is named first", func(t *testing.T) {
		whole, err := os.ReadFile(tr)
		if err != nil {
			t.Fatal(err)
		}
		cut := filepath.Join(t.TempDir(), "cut.trace")
		if err := os.WriteFile(cut, whole[:len(whole)*2/3], 0o600); err != nil {
			t.Fatal(err)
		}
		dropEvents(t, ctx, clB)
		out := filepath.Join(t.TempDir(), "r.json")
		code, stdout, stderr := runCLI(t, ctx, nil, "replay", cut, "--uri", uriB, "--speed", "max", "--out", out, "--quiet")
		if code != 0 {
			t.Fatalf("replay of a cut trace: exit %d\n%s\n%s", code, stdout, stderr)
		}
		missing := strings.Index(stderr, "rp.events is not on the target")
		if missing < 0 || missing > strings.Index(stderr, "running ") {
			t.Errorf("the missing collection was not named before the run:\n%s", stderr)
		}
		res, err := results.ReadJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		rp := res.Replay
		if rp == nil || rp.Damage == "" || rp.Sent == 0 || rp.Sent >= int64(2*burstOps) || !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "did not read whole") }) {
			t.Errorf("a cut trace: %+v, notes %v", rp, res.Notes)
		}
	})
}

// TestReplayRefusesBadFlags: each bad value, by flag or variable, is
// refused in one line that names its source (exit 12), a file that is no
// trace by name (exit 3), before any server is asked.
func TestReplayRefusesBadFlags(t *testing.T) {
	ctx := context.Background()
	notTrace := writeFile(t, "w.yaml", "name: x\n")
	for _, c := range []struct {
		args []string
		env  map[string]string
		code int
		says string
	}{
		{[]string{"--speed", "0"}, nil, 12, "--speed"},
		{[]string{"--speed", "NaN"}, nil, 12, "--speed"},
		{[]string{"--speed", "fast"}, nil, 12, "--speed"},
		{[]string{"--loop", "1.5"}, nil, 12, "--loop"},
		{[]string{"--loop", "0"}, nil, 12, "--loop"},
		{nil, nil, 3, "not a mongoload trace"},
		// the run's settings by run's rules, before the trace is read (promises6
		// replay-interval-panic: 0s panicked after setup, 1ms was taken)
		{[]string{"--interval", "0s"}, nil, 12, "--interval: the reporting interval must be at least 10ms"},
		{[]string{"--interval", "1ms"}, nil, 12, "--interval: the reporting interval must be at least 10ms"},
		{nil, map[string]string{"MONGOLOAD_INTERVAL": "0s"}, 12, "MONGOLOAD_INTERVAL: the reporting interval must be at least 10ms"},
		// --speed and --loop read their variables, as their help says
		{nil, map[string]string{"MONGOLOAD_SPEED": "0"}, 12, "MONGOLOAD_SPEED: \"0\": 0 is out of range"},
		{nil, map[string]string{"MONGOLOAD_LOOP": "0"}, 12, "MONGOLOAD_LOOP: \"0\": 0 is out of range"},
		{[]string{"--speed", "2"}, map[string]string{"MONGOLOAD_SPEED": "0"}, 3, "not a mongoload trace"}, // the flag wins
		// a variable of a setting replay does not take is not its own
		{nil, map[string]string{"MONGOLOAD_CONCURRENCY": "0"}, 3, "not a mongoload trace"},
	} {
		args := append([]string{"replay", notTrace, "--uri", "mongodb://127.0.0.1:1"}, c.args...)
		code, _, stderr := runCLI(t, ctx, c.env, args...)
		if code != c.code || !strings.Contains(stderr, c.says) || strings.Count(strings.TrimSpace(stderr), "\n") > 1 {
			t.Errorf("%v: exit %d, want %d naming %q:\n%s", c.args, code, c.code, c.says, stderr)
		}
	}
}
