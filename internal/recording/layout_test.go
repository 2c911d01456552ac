package recording

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The test files are built from the layout MongoDB's source writes
// (package comment): these helpers are that layout, written independently
// of the reader.

// rec is a recording being built.
type rec struct {
	b     []byte
	order uint64
}

// packet appends one packet.
func (r *rec) packet(event byte, conn uint64, offsetMicros uint64, msg []byte) {
	r.order++
	session := `{ "remote" : "127.0.0.1:50000", "local" : "127.0.0.1:27017" }`
	size := 4 + 1 + 8 + len(session) + 1 + 8 + 8 + len(msg)
	b := binary.LittleEndian.AppendUint32(nil, uint32(size))
	b = append(b, event)
	b = binary.LittleEndian.AppendUint64(b, conn)
	b = append(append(b, session...), 0)
	b = binary.LittleEndian.AppendUint64(b, offsetMicros)
	b = binary.LittleEndian.AppendUint64(b, r.order)
	r.b = append(append(r.b, b...), msg...)
}

// Seq is an OP_MSG document sequence (section kind 1).
type Seq struct {
	ID   string
	Docs []bson.D
}

// buildMsg is a wire OP_MSG: its header, flags, body (kind 0) and sequences;
// with flagChecksum set, 4 bytes of checksum end it.
func buildMsg(t *testing.T, requestID, responseTo int32, flags uint32, body bson.D, seqs ...Seq) []byte {
	t.Helper()
	var sec []byte
	sec = binary.LittleEndian.AppendUint32(sec, flags)
	sec = append(sec, 0)
	sec = append(sec, marshal(t, body)...)
	for _, s := range seqs {
		var docs []byte
		for _, d := range s.Docs {
			docs = append(docs, marshal(t, d)...)
		}
		sec = append(sec, 1)
		sec = binary.LittleEndian.AppendUint32(sec, uint32(4+len(s.ID)+1+len(docs)))
		sec = append(append(append(sec, s.ID...), 0), docs...)
	}
	if flags&flagChecksum != 0 {
		sec = append(sec, 0xde, 0xad, 0xbe, 0xef)
	}
	h := binary.LittleEndian.AppendUint32(nil, uint32(16+len(sec)))
	h = binary.LittleEndian.AppendUint32(h, uint32(requestID))
	h = binary.LittleEndian.AppendUint32(h, uint32(responseTo))
	h = binary.LittleEndian.AppendUint32(h, opMsg)
	return append(h, sec...)
}

func marshal(t *testing.T, d bson.D) []byte {
	t.Helper()
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// write writes the recording as dir/name.
func (r *rec) write(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, r.b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// For the external test that replays a recording into the real server.
const (
	EventRequest  = eventRequest
	EventResponse = eventResponse
	EventStart    = eventSessionStart
	FlagChecksum  = flagChecksum
)

// Rec is rec, for that test.
type Rec = rec

// Packet is packet, for that test.
func (r *rec) Packet(event byte, conn, offsetMicros uint64, msg []byte) {
	r.packet(event, conn, offsetMicros, msg)
}

// Write is write, for that test.
func (r *rec) Write(t *testing.T, dir, name string) string { return r.write(t, dir, name) }

// BuildMsg is buildMsg, for that test.
var BuildMsg = buildMsg
