package trace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// entries makes n entries that end in order but start out of it (every
// third took 300 ms), as a profiler records them.
func entries(n int) []Entry {
	var out []Entry
	for i := range n {
		end := t0.Add(time.Duration(i) * time.Millisecond)
		d := time.Millisecond
		if i%3 == 0 {
			d = 300 * time.Millisecond
		}
		cmd, _ := bson.Marshal(bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: bson.D{{Key: "_id", Value: int32(i)}}}})
		out = append(out, Entry{Start: end.Add(-d), Dur: d, NS: "db.c", Op: "query", Cmd: cmd, Conn: fmt.Sprint("conn", i%7), Shape: "find db.c"})
	}
	return out
}

func write(t *testing.T, es []Entry) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := NewWriter(&b, Header{Tool: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if err := w.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(Trailer{Sources: []Source{{Name: "profiler", Complete: true}}}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readAll(t *testing.T, data []byte) ([]Entry, *Reader) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out []Entry
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, r
		}
		out = append(out, e)
	}
}

// TestRoundTripInStartOrder: every entry comes back with its fields, in the
// order the operations started, though they were added in the order they
// ended.
func TestRoundTripInStartOrder(t *testing.T) {
	es := entries(10000)
	got, r := readAll(t, write(t, es))
	if len(got) != len(es) || r.Damage.Any() || r.Trailer == nil || r.Trailer.Entries != int64(len(es)) || r.Trailer.Late != 0 {
		t.Fatalf("read %d of %d, damage %+v, trailer %+v", len(got), len(es), r.Damage, r.Trailer)
	}
	seen := map[string]bool{}
	for i, e := range got {
		if i > 0 && e.Start.Before(got[i-1].Start) {
			t.Fatalf("entry %d starts at %v, before the one before it (%v)", i, e.Start, got[i-1].Start)
		}
		seen[e.Cmd.String()+e.Conn+e.Start.String()+e.Dur.String()] = true
	}
	for _, e := range es {
		if !seen[e.Cmd.String()+e.Conn+e.Start.String()+e.Dur.String()] {
			t.Fatalf("entry %v lost or changed", e.Cmd)
		}
	}
}

// TestDamageIsCountedAndTheRestReads: a corrupted frame in the middle is
// skipped and its entries counted; the frames after it still read; a file
// cut short keeps its whole frames and says it is cut.
func TestDamageIsCountedAndTheRestReads(t *testing.T) {
	es := entries(3 * frameEntries)
	data := write(t, es)
	// The second entry frame: find its magic and flip a byte of its data.
	first := bytes.Index(data, []byte(frameMagic))
	second := first + 1 + bytes.Index(data[first+1:], []byte(frameMagic))
	e1 := second + 1 + bytes.Index(data[second+1:], []byte(frameMagic))
	bad := bytes.Clone(data)
	bad[e1+headSize+10] ^= 0xff
	n := int(binary.LittleEndian.Uint32(data[e1+5:])) // the damaged frame's count
	got, r := readAll(t, bad)
	if n == 0 || r.Damage.LostFrames != 1 || r.Damage.LostEntries != int64(n) || len(got) != len(es)-n {
		t.Fatalf("corrupt frame: read %d, damage %+v", len(got), r.Damage)
	}
	cut := data[:len(data)-len(data)/3]
	got, r = readAll(t, cut)
	if !r.Damage.Truncated || len(got) == 0 || len(got) >= len(es) {
		t.Fatalf("cut file: read %d of %d, damage %+v", len(got), len(es), r.Damage)
	}
}

// TestNotATrace: another file is refused by name.
func TestNotATrace(t *testing.T) {
	if _, err := NewReader(bytes.NewReader([]byte("{\"a\": 1}\n"))); err == nil {
		t.Fatal("a JSON file was read as a trace")
	}
}
