package run

import (
	"context"
	"errors"
	"fmt"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// ErrSource is the refusal to write to the deployment a workload was
// captured from (errors.Is); it carries run.Refused, exit 19.
var ErrSource = errors.New("this is the deployment the workload was captured from")

// GuardSource refuses to write to the deployment client is connected to
// when it is the one a captured workload was read from (capturedFrom, the
// file's config.Config.CapturedFrom), unless writeToSource
// (--write-to-source): a captured file keeps the source's database and
// collection names, so a mistyped URI or a copy-pasted command would
// otherwise write generated documents into the application's own
// collections, or drop them with --drop. Every command that writes with a
// workload calls it after connecting and before anything is created,
// dropped or written: run, sweep and findmax (through Open), load, replay
// and ab. A workload that was not captured (capturedFrom empty) passes
// without a word to the server. The error is of Kind Refused (exit 19).
func GuardSource(ctx context.Context, client *mongodb.Client, capturedFrom []string, writeToSource bool) error {
	if len(capturedFrom) == 0 || writeToSource {
		return nil
	}
	here, err := client.Deployment(ctx)
	if err != nil {
		// Not knowing is not a pass: the guard exists for production.
		return fail(Refused, fmt.Errorf("the workload was captured from a deployment and this one cannot be told apart from it (%w): nothing was written; pass --write-to-source if writing here is intended", err))
	}
	if here.Same(capturedFrom) {
		return fail(Refused, fmt.Errorf("%w: nothing was written, created or dropped; run the workload against a copy or a test deployment (--uri), or pass --write-to-source to write into the application's own data anyway", ErrSource))
	}
	return nil
}
