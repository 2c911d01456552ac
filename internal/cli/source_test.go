package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/testserver"
)

// TestCapturedFileRefusesItsSource is issue 30's hint that could drop
// production: a captured workload keeps the source's database and
// collection names, and run --drop of it against the source used to drop
// the application's collection and reseed it. Now capture records the
// deployment's identity in the file, and run (with or without --drop) and
// load refuse to write to it (exit 19), naming --write-to-source and never
// --drop; the application's documents and collections stay as they were,
// read by the test's own commands. --write-to-source passes this guard and
// meets the ownership rule behind it (still exit 19, for the collection
// mongoload did not create), so it too writes nothing here.
func TestCapturedFileRefusesItsSource(t *testing.T) {
	ctx := context.Background()
	uri := testserver.URI(t)
	d := openDB(t, uri)
	name := fmt.Sprintf("capsrc_%d", os.Getpid())
	t.Cleanup(func() { _, _ = d.cl.Command(context.Background(), name, bson.D{{Key: "dropDatabase", Value: 1}}) })
	runLibrary(t, ctx, d.cl, name, 200)
	w := filepath.Join(t.TempDir(), "captured.yaml")
	if code, out, errs := runCLI(t, ctx, nil, "capture", "--uri", uri, "--database", name, "--out", w); code != 0 {
		t.Fatalf("capture: exit %d: %s%s", code, out, errs)
	}
	profileLevel(t, ctx, d.cl, name, 0)
	if text, _ := os.ReadFile(w); !strings.Contains(string(text), "capturedFrom:") {
		t.Fatalf("the captured file does not record its source:\n%s", text)
	}
	books, cols := d.count(name, "books"), d.collections(name)
	for _, args := range [][]string{
		{"run", w, "--uri", uri, "--duration", "1s", "--quiet"},
		{"run", w, "--uri", uri, "--duration", "1s", "--quiet", "--drop"},
		{"load", w, "--uri", uri, "--documents", "10", "--drop"},
	} {
		code, out, errs := runCLI(t, ctx, nil, args...)
		if code != ExitSetup || !strings.Contains(errs, "captured from") || !strings.Contains(errs, "--write-to-source") {
			t.Errorf("%s: exit %d, want %d naming the source and --write-to-source: %s%s", strings.Join(args, " "), code, ExitSetup, out, errs)
		}
		if strings.Contains(out+errs, "--drop") {
			t.Errorf("%s: the refusal suggests --drop: %s%s", strings.Join(args, " "), out, errs)
		}
		if n, c := d.count(name, "books"), d.collections(name); n != books || !slices.Equal(sorted(c), sorted(cols)) {
			t.Fatalf("%s: the source changed: books %d -> %d documents, collections %v -> %v", strings.Join(args, " "), books, n, cols, c)
		}
	}
	code, out, errs := runCLI(t, ctx, nil, "run", w, "--uri", uri, "--duration", "1s", "--quiet", "--write-to-source")
	if code != ExitSetup || strings.Contains(errs, "captured from") || strings.Contains(out+errs, "--drop") {
		t.Errorf("--write-to-source: exit %d, want the ownership rule's refusal (%d) without a --drop hint: %s%s", code, ExitSetup, out, errs)
	}
	if n := d.count(name, "books"); n != books {
		t.Fatalf("--write-to-source: books %d -> %d documents", books, n)
	}
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
