package telemetry

import (
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

var _ = resultstest.UpdateFlag() // go test -update rewrites the golden files

// TestLineGolden protects the --server-stats line: the test server's
// sample (no CPU, no lag), a mongod-like one with everything, one over a
// restart (no counters), and one with nothing at all, where every value is
// "-" and none is 0.
func TestLineGolden(t *testing.T) {
	test, _ := Delta(parse(t, captured(t, "secantus-serverstatus-1.json"), t0), parse(t, captured(t, "secantus-serverstatus-2.json"), t0.Add(500*time.Millisecond)))
	test.T = 5
	mongod, _ := Delta(parse(t, mongodStatus(1000, 100_000, 2_000_000), t0), parse(t, mongodStatus(2000, 108_120, 2_600_000), t0.Add(time.Second)))
	mongod.T = 12
	lag := 0.25
	mongod.Replication = []results.MemberLag{{Name: "b", LagSeconds: &lag}, {Name: "c"}}
	restart, _ := Delta(parse(t, mongodStatus(9000, 150, 0), t0), parse(t, mongodStatus(100, 2, 0), t0.Add(time.Second)))
	restart.T = 13
	var b strings.Builder
	for _, s := range []results.ServerSample{test, mongod, restart, {T: 14, Dt: 1}} {
		b.WriteString(Line(s))
	}
	resultstest.Golden(t, "line.golden", []byte(b.String()))
}
