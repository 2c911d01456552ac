package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/testserver"
)

func bsonDrop() bson.D { return bson.D{{Key: "dropDatabase", Value: 1}} }

// TestABTrafficRefusals: ab on a trace refuses, before either side is
// touched, a trace captured from either side (whole or cut short: the
// header names it), a trace of writes only (nothing it would send), a
// workload's settings, and a bad --writes; --speed on a workload too. The
// sides' data stay as they were.
func TestABTrafficRefusals(t *testing.T) {
	ctx := context.Background()
	a := testserver.URI(t)
	b, _ := testserver.Own(t)
	ca, cb := connectTest(t, ctx, a), connectTest(t, ctx, b)
	db := "abtraffic_refusals"
	_, _ = ca.Command(ctx, db, bsonDrop())
	t.Cleanup(func() { _, _ = ca.Command(context.Background(), db, bsonDrop()) })
	loadShop(t, ctx, ca, db)
	loadShop(t, ctx, cb, db)
	before := shopState(t, ctx, ca, db)
	idA, err := ca.Deployment(ctx)
	if err != nil {
		t.Fatal(err)
	}
	idB, err := cb.Deployment(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := func(name string, source []string, reads, writes bool) string {
		p := filepath.Join(dir, name)
		shopTrace(t, p, db, 100, source, reads, writes)
		return p
	}
	fromA := path("a.trace", idA, true, true)
	raw, _ := os.ReadFile(fromA)
	cutA := filepath.Join(dir, "a-cut.trace")
	if err := os.WriteFile(cutA, raw[:len(raw)-6], 0o600); err != nil {
		t.Fatal(err)
	}
	other := path("other.trace", []string{"elsewhere:27017"}, true, false)
	workload := filepath.Join(dir, "w.yaml")
	if err := os.WriteFile(workload, []byte("name: w\ncollections: [{database: x, name: y}]\noperations: [{name: f, type: find, filter: {}, weight: 1}]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"source is A", []string{fromA}, 19, "captured from"},
		{"source is A, cut short", []string{cutA}, 19, "captured from"},
		{"source is B", []string{path("b.trace", idB, true, true)}, 19, "captured from"},
		{"writes only", []string{path("w.trace", []string{"elsewhere:27017"}, false, true)}, 3, "writes are not sent"},
		{"a workload's setting", []string{other, "--duration", "5s"}, 2, "--duration does not apply"},
		{"a bad --writes", []string{other, "--writes", "commit"}, 12, "--writes"},
		{"--speed on a workload", []string{workload, "--speed", "2"}, 2, "captured traffic"},
	} {
		args := append([]string{"ab"}, c.args...)
		args = append(args, "--uri", a, "--candidate-uri", b, "--allow-existing", "--rounds", "2")
		code, stdout, stderr := runCLI(t, ctx, nil, args...)
		if code != c.code || !strings.Contains(stderr, c.says) {
			t.Errorf("%s: exit %d, want %d saying %q:\n%s%s", c.name, code, c.code, c.says, stdout, stderr)
		}
		if got := shopState(t, ctx, ca, db); got != before {
			t.Fatalf("%s: A changed: %s, before %s", c.name, got, before)
		}
		if got := shopState(t, ctx, cb, db); got != before {
			t.Fatalf("%s: B changed: %s, before %s", c.name, got, before)
		}
	}
}
