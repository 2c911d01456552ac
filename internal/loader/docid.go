package loader

import (
	"bytes"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/generate"
)

// checkID decides whether documents need an _id derived from the key, and
// warns when the template's own _id is not a function of the key.
func (p *partRun) checkID() {
	key := p.part.From
	gen := func(stream uint64) []byte {
		st := generate.NewState(stream, stream)
		st.BeginDocument(p.col.Keys, key, p.seed, p.rec.Epoch)
		return p.col.Doc.Append(nil, st)
	}
	a, b := gen(1), gen(2)
	ida, errA := bson.Raw(a).LookupErr("_id")
	idb, errB := bson.Raw(b).LookupErr("_id")
	switch {
	case errA != nil || errB != nil:
		p.addID = true
	case ida.Type != idb.Type || !bytes.Equal(ida.Value, idb.Value):
		p.o.OnNotice(fmt.Sprintf("%s: the template's _id follows the clock, not the key: an interrupted load of it cannot be resumed without duplicates (use {$gen: objectId} or {$gen: key})", p.col.Namespace()))
	}
}

// prependID inserts an _id ObjectId element at the front of the document
// that starts at buf[at:].
func prependID(buf []byte, at int, oid bson.ObjectID) []byte {
	const elem = 1 + 4 + 12 // type, "_id\x00", ObjectId
	n := len(buf) - at
	buf = append(buf, make([]byte, elem)...)
	copy(buf[at+4+elem:], buf[at+4:at+n])
	e := buf[at+4 : at+4+elem]
	e[0] = byte(bson.TypeObjectID)
	copy(e[1:5], "_id\x00")
	copy(e[5:], oid[:])
	size := uint32(n + elem)
	buf[at], buf[at+1], buf[at+2], buf[at+3] = byte(size), byte(size>>8), byte(size>>16), byte(size>>24)
	return buf
}

func firstLine(err error) string {
	s := err.Error()
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
