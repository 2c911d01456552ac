package recording

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/trace"
)

func readAll(t *testing.T, path string) (*Reader, []trace.Entry) {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []trace.Entry
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return r, out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
}

// TestReadsRequestsInOrderWithTheirDurations: a recording of two
// connections, built from the layout: every request an entry in the order
// received, each timed to its connection's next response; sessions'
// events, responses and a compressed message are no entries; document
// sequences are put back in the command; a checksum is left out.
func TestReadsRequestsInOrderWithTheirDurations(t *testing.T) {
	var r rec
	find := bson.D{{Key: "find", Value: "people"}, {Key: "filter", Value: bson.D{{Key: "_id", Value: 5}}}, {Key: "$db", Value: "crm"}}
	ok := bson.D{{Key: "ok", Value: 1.0}}
	r.packet(eventSessionStart, 7, 0, nil)
	r.packet(eventRequest, 7, 1000, buildMsg(t, 1, 0, 0, find))
	r.packet(eventRequest, 8, 2000, buildMsg(t, 1, 0, 0, find))
	r.packet(eventResponse, 7, 3500, buildMsg(t, 2, 1, 0, ok))
	r.packet(eventRequest, 7, 5000, buildMsg(t, 3, 0, 0, bson.D{{Key: "insert", Value: "people"}, {Key: "$db", Value: "crm"}},
		Seq{"documents", []bson.D{{{Key: "_id", Value: 1}}, {{Key: "_id", Value: 2}}}}))
	r.packet(eventResponse, 7, 5600, buildMsg(t, 4, 3, 0, ok))
	r.packet(eventRequest, 7, 6000, buildMsg(t, 5, 0, flagChecksum, bson.D{{Key: "update", Value: "people"},
		{Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "org", Value: "a"}}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "x", Value: 1}}}}}, {Key: "multi", Value: true}}}},
		{Key: "$db", Value: "crm"}}))
	r.packet(eventResponse, 7, 6100, buildMsg(t, 6, 5, 0, ok))
	r.packet(eventRequest, 7, 7000, buildMsg(t, 7, 0, flagMoreToCome, bson.D{{Key: "delete", Value: "people"},
		{Key: "deletes", Value: bson.A{bson.D{{Key: "q", Value: bson.D{}}, {Key: "limit", Value: 0}}}}, {Key: "$db", Value: "crm"}}))
	compressed := buildMsg(t, 8, 0, 0, find)
	compressed[12] = byte(opCompressed & 0xff)
	compressed[13] = byte(opCompressed >> 8)
	r.packet(eventRequest, 7, 7100, compressed)
	r.packet(eventResponse, 9, 7200, buildMsg(t, 9, 99, 0, ok)) // its request predates the recording
	r.packet(eventSessionEnd, 7, 8000, nil)
	r.packet(eventResponse, 8, 9000, buildMsg(t, 2, 1, 0, ok))
	path := r.write(t, t.TempDir(), "1700000000000.bin")

	rd, got := readAll(t, path)
	base := time.UnixMilli(1700000000000).UTC()
	want := []struct {
		at, dur time.Duration
		conn    string
		op      string
		shape   string
	}{
		{1000 * time.Microsecond, 2500 * time.Microsecond, "conn7", "query", "find people {_id}"},
		{2000 * time.Microsecond, 7000 * time.Microsecond, "conn8", "query", "find people {_id}"},
		{5000 * time.Microsecond, 600 * time.Microsecond, "conn7", "insert", "insert people batch"},
		{6000 * time.Microsecond, 100 * time.Microsecond, "conn7", "update", "update people multi {org}"},
		{7000 * time.Microsecond, 0, "conn7", "remove", "delete people multi {}"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		e := got[i]
		if !e.Start.Equal(base.Add(w.at)) || e.Dur != w.dur || e.Conn != w.conn || e.Op != w.op || e.Shape != w.shape || e.NS != "crm.people" {
			t.Errorf("entry %d: start +%v dur %v %s %s %q %s, want +%v %v %s %s %q crm.people", i, e.Start.Sub(base), e.Dur, e.Conn, e.Op, e.Shape, e.NS,
				w.at, w.dur, w.conn, w.op, w.shape)
		}
	}
	docs, _ := got[2].Cmd.Lookup("documents").Array().Values()
	if len(docs) != 2 || docs[1].Document().Lookup("_id").AsInt64() != 2 {
		t.Errorf("the insert's documents: %v", got[2].Cmd)
	}
	if rd.Skipped[WhyCompressed] != 1 || len(rd.Skipped) != 1 {
		t.Errorf("skipped %v, want the compressed message", rd.Skipped)
	}
	if rd.Trailer == nil || rd.Damage.Any() {
		t.Errorf("trailer %v, damage %+v: want a trailer and no damage", rd.Trailer, rd.Damage)
	}
}

// TestCutAndForeignFiles: a file cut inside its last packet keeps every
// whole packet before the cut and says it was cut; a file in no layout is
// refused by name.
func TestCutAndForeignFiles(t *testing.T) {
	var r rec
	find := bson.D{{Key: "find", Value: "c"}, {Key: "$db", Value: "d"}}
	r.packet(eventRequest, 1, 10, buildMsg(t, 1, 0, 0, find))
	r.packet(eventResponse, 1, 20, buildMsg(t, 2, 1, 0, bson.D{{Key: "ok", Value: 1.0}}))
	r.packet(eventRequest, 1, 30, buildMsg(t, 3, 0, 0, find))
	r.b = r.b[:len(r.b)-5]
	dir := t.TempDir()
	rd, got := readAll(t, r.write(t, dir, "1.bin"))
	if len(got) != 1 || got[0].Dur != 10*time.Microsecond || !rd.Damage.Truncated {
		t.Errorf("cut file: %d entries (%+v), damage %+v: want the first, and the cut said", len(got), got, rd.Damage)
	}

	// Neither layout: refused by name.
	foreign := dir + "/foreign.bin"
	if err := os.WriteFile(foreign, []byte("\x40\x00\x00\x00 this is not a recording, whatever its name says ......................"), 0o600); err != nil {
		t.Fatal(err)
	}
	if IsRecording(foreign) {
		t.Error("a foreign file passes for a recording")
	}
	if _, err := Open(foreign); !errors.Is(err, ErrLayout) {
		t.Errorf("Open of a foreign file: %v, want ErrLayout", err)
	}
}

// dated appends a packet of an earlier layout: size, connection, the
// session (or the local and remote addresses), the date in ms, order,
// message.
func dated(b []byte, conn uint64, strs []string, dateMs uint64, order uint64, msg []byte) []byte {
	size := 4 + 8 + 8 + 8 + len(msg)
	for _, s := range strs {
		size += len(s) + 1
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(size))
	b = binary.LittleEndian.AppendUint64(b, conn)
	for _, s := range strs {
		b = append(append(b, s...), 0)
	}
	b = binary.LittleEndian.AppendUint64(b, dateMs)
	b = binary.LittleEndian.AppendUint64(b, order)
	return append(b, msg...)
}

// TestEarlierLayouts: recordings of the two layouts before MongoDB 8's
// (no event byte, the date in milliseconds; the session as one string, or
// as the local and remote addresses) read to the millisecond, a response
// told by its responseTo.
func TestEarlierLayouts(t *testing.T) {
	find := bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: bson.D{{Key: "k", Value: 1}}}, {Key: "$db", Value: "d"}}
	date := uint64(time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC).UnixMilli())
	for name, strs := range map[string][]string{
		"session":   {`{ "remote" : "10.0.0.9:50000" }`},
		"addresses": {"10.0.0.1:27017", "10.0.0.9:50000"},
	} {
		var b []byte
		b = dated(b, 12, strs, date, 1, buildMsg(t, 7, 0, 0, find))
		b = dated(b, 12, strs, date+3, 2, buildMsg(t, 8, 7, 0, bson.D{{Key: "ok", Value: 1.0}}))
		b = dated(b, 12, strs, date+10, 3, buildMsg(t, 9, 0, 0, find))
		path := t.TempDir() + "/1714564800000.bin"
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		rd, got := readAll(t, path)
		if len(got) != 2 || !got[0].Start.Equal(time.UnixMilli(int64(date))) || got[0].Dur != 3*time.Millisecond ||
			!got[1].Start.Equal(time.UnixMilli(int64(date+10))) || got[0].Conn != "conn12" || got[0].Shape != "find c {k}" || rd.Damage.Any() {
			t.Errorf("%s: %+v, damage %+v: want two finds at +0 and +10 ms, the first 3 ms long", name, got, rd.Damage)
		}
	}
}

// TestChecksums: a recording of two files read in name order, as one;
// the recorder's checksum.txt (each file's CRC-32C in hex, by its path on
// the server) holds the first's right and the second's wrong: the second
// is read as it is, and counted as damage.
func TestChecksums(t *testing.T) {
	find := bson.D{{Key: "find", Value: "c"}, {Key: "$db", Value: "d"}}
	var first, second rec
	first.packet(eventRequest, 1, 10, buildMsg(t, 1, 0, 0, find))
	first.packet(eventResponse, 1, 20, buildMsg(t, 2, 1, 0, bson.D{{Key: "ok", Value: 1.0}}))
	second.order = first.order
	second.packet(eventRequest, 1, 30, buildMsg(t, 3, 0, 0, find))
	second.packet(eventResponse, 1, 45, buildMsg(t, 4, 3, 0, bson.D{{Key: "ok", Value: 1.0}}))
	dir := t.TempDir()
	first.write(t, dir, "1700000000000.bin")
	second.write(t, dir, "1700000000001.bin")
	castagnoli := crc32.MakeTable(crc32.Castagnoli)
	sums := fmt.Sprintf("/var/lib/mongo/rec/1700000000000.bin\t%x\n/var/lib/mongo/rec/1700000000001.bin\t%x\n",
		crc32.Checksum(first.b, castagnoli), crc32.Checksum(second.b, castagnoli)^1)
	if err := os.WriteFile(dir+"/checksum.txt", []byte(sums), 0o600); err != nil {
		t.Fatal(err)
	}
	rd, got := readAll(t, dir)
	if len(got) != 2 || got[1].Dur != 15*time.Microsecond || rd.Damage.BadChecksums != 1 || !strings.Contains(rd.Damage.String(), "checksum") {
		t.Errorf("%d entries (%+v), damage %+v (%s): want both files' entries and one bad checksum said", len(got), got, rd.Damage, rd.Damage.String())
	}
}
