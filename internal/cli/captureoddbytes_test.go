package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestCaptureOddBytesFromTheProfiler (promises6 case 5, the BSON side):
// names followed by U+FFFD (what a driver puts for a byte that was not
// UTF-8) or a zero-width space reach the profiler as they were sent
// (the test server refuses bytes that are not UTF-8 at all); captured
// from it, from an export of it and from a log made of it, without
// --keep-values none is written, in clear or as !!binary.
func TestCaptureOddBytesFromTheProfiler(t *testing.T) {
	uri := testserver.URI(t)
	ctx := context.Background()
	cl := connectTest(t, ctx, uri)
	d := openDB(t, uri)
	db := profiledDatabase(t, cl, "capodd")
	d.cmd(db, bson.D{{Key: "insert", Value: "people"}, {Key: "documents", Value: bson.A{bson.D{{Key: "status", Value: "a"}}}}})
	if err := cl.SetProfiler(ctx, db, mongodb.ProfilerState{Level: 2, SlowMS: 100, SampleRate: 1}); err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		name := []string{"Zelda Quixote\ufffd", "Yorick Pemberton\u200b"}[i%2]
		d.cmd(db, bson.D{{Key: "find", Value: "people"}, {Key: "filter", Value: bson.D{{Key: "owner", Value: name}}}})
		d.cmd(db, bson.D{{Key: "update", Value: "people"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "status", Value: "a"}}},
			{Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "last", Value: name}}}}}}}}})
	}
	if err := cl.SetProfiler(ctx, db, mongodb.ProfilerState{Level: 0, SlowMS: 100, SampleRate: 1}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	export, log := filepath.Join(dir, "profile.json"), filepath.Join(dir, "mongod.log")
	writeProfile(t, d.find(db, "system.profile", bson.D{{Key: "ts", Value: 1}}), export, log)
	for source, args := range map[string][]string{"profiler": {"--uri", uri, "--database", db}, "export": {"--export", export}, "log": {"--log", log}} {
		out := filepath.Join(dir, source+".yaml")
		code, stdout, stderr := runCLI(t, ctx, nil, append([]string{"capture", "--out", out}, args...)...)
		text, _ := os.ReadFile(out)
		if code != 0 || !strings.Contains(string(text), "operations:") {
			t.Fatalf("%s: exit %d: %s%s", source, code, stdout, stderr)
		}
		all := string(text) + stdout + stderr
		for _, s := range []string{"Quixote", "Pemberton", "!!binary"} {
			if strings.Contains(all, s) {
				t.Errorf("%s: %q left the source:\n%s", source, s, text)
			}
		}
	}
}
