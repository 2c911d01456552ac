package cli

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestFindMaxSaysNoise runs the same search quiet, then with four busy
// loops on the host (processes of their own, as a neighbour's work is):
// the busy answer stays within 10% of the quiet one, or the file says
// reliable: false with the other work it measured, exits 25 without
// --accept-noise, and never names the server as the limit from a server
// that waited on a busy host.
func TestFindMaxSaysNoise(t *testing.T) {
	testserver.Timing(t)
	uri := testserver.Fresh(t).URI // a capacity: of a server no earlier test has aged
	wl := uniqueDB(t, reads)
	search := func(name string, extra ...string) (int, *results.FindMax, string) {
		out := filepath.Join(t.TempDir(), name+".json")
		args := append([]string{"findmax", wl, "--uri", uri, "--seed", "2000", "--slo", "p99<=20ms", "--start", "100",
			"--step-duration", "1s", "--warmup", "300ms", "--max-probes", "8", "--out", out}, extra...)
		code, stdout, stderr := runCLI(t, context.Background(), nil, args...)
		f, err := results.ReadFindMax(out)
		if err != nil {
			t.Fatalf("%s: exit %d, %v\n%s\n%s", name, code, err, stdout, stderr)
		}
		return code, f, stdout + stderr
	}
	_, quiet, _ := search("quiet", "--accept-noise")
	var loops []*exec.Cmd
	for range 4 {
		c := exec.Command("sh", "-c", "while :; do :; done")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		loops = append(loops, c)
	}
	code, busy, out := search("busy")
	for _, c := range loops {
		_ = c.Process.Kill()
		_ = c.Wait()
	}
	if busy.Reliable == nil || busy.Reliability == nil {
		t.Fatalf("the busy search was not assessed:\n%s", out)
	}
	if !*busy.Reliable {
		if code != ExitNoise || !strings.Contains(out, "Unreliable: ") {
			t.Errorf("unreliable, exit %d (want %d):\n%s", code, ExitNoise, out)
		}
		if busy.Reliability.Interference > 0.10 && strings.HasPrefix(busy.Limit.Kind, "server") {
			t.Errorf("other work took %.0f%% of the host, and the limit named is the server's: %s", 100*busy.Reliability.Interference, busy.Limit.Text)
		}
		return
	}
	if busy.MaxRate < 0.9*quiet.MaxRate || busy.MaxRate > 1.1*quiet.MaxRate {
		t.Errorf("with four busy loops %g ops/s, quiet %g ops/s, and reliable: %s", busy.MaxRate, quiet.MaxRate, busy.ReliableWhy)
	}
	// Every probe says what else ran on the host.
	for i, p := range busy.Probes {
		if p.Result != nil && p.Result.Interference == nil {
			t.Errorf("probe %d has no interference measured", i+1)
		}
	}
}
