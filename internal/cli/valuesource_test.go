package cli

import (
	"context"
	"strings"
	"testing"
)

// TestValueErrorsNameTheirSource: a bad value is refused naming what gave
// it, the flag, the variable or the file's key, never a flag that was not
// given (promises6 env-named-flag: MONGOLOAD_CONCURRENCY=4,x was named
// --concurrency), for the values checked outside config.Validate too
// (the SLO's grammar, load's --collection).
func TestValueErrorsNameTheirSource(t *testing.T) {
	w := writeFile(t, "w.yaml", "name: w\ncollections: [{database: vs, name: c, template: {_id: {$gen: key}}}]\noperations: [{name: a, type: findOne, weight: 1, filter: {_id: 1}}]\n")
	wSLO := writeFile(t, "s.yaml", "name: w\ncollections: [{database: vs, name: c, template: {_id: {$gen: key}}}]\noperations: [{name: a, type: findOne, weight: 1, filter: {_id: 1}}]\nrun: {slo: \"p99<=\"}\n")
	dead := []string{"--uri", "mongodb://127.0.0.1:1", "--server-selection-timeout", "100ms"}
	for _, c := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"run", w, "--slo", "p99<="}, nil, "mongoload: --slo: "},
		{[]string{"run", w}, map[string]string{"MONGOLOAD_SLO": "p99<="}, "mongoload: MONGOLOAD_SLO: "},
		{[]string{"run", wSLO}, nil, "mongoload: " + wSLO + ": run.slo: "},
		{[]string{"run", w}, map[string]string{"MONGOLOAD_DASHBOARD": "nohost:port:x"}, "mongoload: MONGOLOAD_DASHBOARD: "},
		{[]string{"load", w, "--documents", "1", "--collection", "nope"}, nil, "mongoload: --collection: the workload has no collection \"nope\""},
		{[]string{"load", w, "--documents", "1"}, map[string]string{"MONGOLOAD_COLLECTION": "nope"}, "mongoload: MONGOLOAD_COLLECTION: the workload has no collection \"nope\""},
	} {
		code, _, stderr := runCLI(t, context.Background(), c.env, append(c.args, dead...)...)
		if code != ExitInvalid || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("%v %v: exit %d, want %d and %q:\n%s", c.args[1:], c.env, code, ExitInvalid, c.want, stderr)
		}
	}
}
