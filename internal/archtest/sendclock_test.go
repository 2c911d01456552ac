package archtest

import (
	"slices"
	"testing"
)

// TestSendClockStaysInTheDriverPackage: the driver's command monitor sees an
// operation only through its context, so the send clock travels there; that
// carrier is internal/mongodb's own business. Everyone else (the engine
// first) reads the send time and failed commands from the executor's Reply,
// and no one else imports internal/sendclock.
func TestSendClockStaysInTheDriverPackage(t *testing.T) {
	for _, f := range tree(t) {
		if slices.Contains(f.imports, "internal/sendclock") && f.dir() != "internal/mongodb" && f.dir() != "internal/sendclock" {
			t.Errorf("%s imports internal/sendclock: the send time reaches it in the executor's Reply", f.path)
		}
	}
}
