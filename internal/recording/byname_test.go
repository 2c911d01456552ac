package recording_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/dbcommand"
	"github.com/mongoload/mongoload/internal/recording"
	"github.com/mongoload/mongoload/internal/replay"
	"github.com/mongoload/mongoload/internal/trace"
)

// TestReplayTellsFilesByContent (promises6 case 8): replay reads a file
// by what it holds, not by its name: a trace named shop.bin (what
// capture --trace shop.bin writes, and then tells to replay) is a trace,
// refused before as "not a MongoDB traffic recording"; a traffic
// recording named shop.trace is a recording; a file that is neither is
// refused naming both; a stream is refused in words.
func TestReplayTellsFilesByContent(t *testing.T) {
	dir := t.TempDir()
	find, _ := bson.Marshal(bson.D{{Key: "find", Value: "people"}, {Key: "filter", Value: bson.D{{Key: "_id", Value: 3}}}})
	w, err := trace.Create(filepath.Join(dir, "shop.bin"), trace.Header{Created: time.Now().UTC(), Tool: "mongoload capture"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(trace.Entry{Start: time.Now(), NS: "shop.people", Op: "query", Cmd: find}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(trace.Trailer{}); err != nil {
		t.Fatal(err)
	}
	tr, err := replay.Scan(filepath.Join(dir, "shop.bin"), dbcommand.Policy{})
	if err != nil || tr.Header.Tool != "mongoload capture" || tr.Entries != 1 {
		t.Errorf("a trace named shop.bin: %v (%+v)", err, tr)
	}

	var r recording.Rec
	r.Packet(recording.EventRequest, 4, 1000, recording.BuildMsg(t, 1, 0, 0, bson.D{{Key: "find", Value: "people"}, {Key: "$db", Value: "shop"}}))
	r.Packet(recording.EventResponse, 4, 1200, recording.BuildMsg(t, 2, 1, 0, bson.D{{Key: "ok", Value: 1.0}}))
	rec := r.Write(t, dir, "shop.trace")
	if tr, err := replay.Scan(rec, dbcommand.Policy{}); err != nil || tr.Header.Tool != recording.Tool || tr.Entries != 1 {
		t.Errorf("a recording named shop.trace: %v (%+v)", err, tr)
	}

	// A trace piped (cat shop.bin | replay /dev/stdin) is refused in words:
	// replay reads its trace more than once, and a stream gives its start
	// to the first reading only.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	pw.Close()
	if _, err := replay.Scan(fmt.Sprintf("/dev/fd/%d", pr.Fd()), dbcommand.Policy{}); err == nil || !strings.Contains(err.Error(), "write it to a file") {
		t.Errorf("a trace piped: %v; want it refused in words", err)
	}

	other := filepath.Join(dir, "notes.bin")
	os.WriteFile(other, []byte("name: x\n"), 0o600)
	if _, err := replay.Scan(other, dbcommand.Policy{}); err == nil || !strings.Contains(err.Error(), "not a mongoload trace") || !strings.Contains(err.Error(), "not a MongoDB traffic recording") {
		t.Errorf("a file that is neither: %v; want both named", err)
	}
}
