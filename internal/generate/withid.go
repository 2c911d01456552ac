package generate

import (
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// WithID returns d giving the documents it makes an _id, first, when they
// have none: the worker's next ObjectId (State.objectID). mongoload sets
// an insert's _id itself rather than leave it to the driver (the process's
// clock and counter), so that two runs of one seed, and both sides of an
// A/B, insert the same documents.
func (d *Document) WithID() *Document { return &Document{g: idFirst{d.g}} }

type idFirst struct{ g Generator }

// Append implements Generator.
func (w idFirst) Append(dst []byte, st *State) (bson.Type, []byte) {
	at := len(dst)
	t, dst := w.g.Append(dst, st)
	if _, err := bsoncore.Document(dst[at:]).LookupErr("_id"); err == nil {
		return t, dst
	}
	return t, PrependID(dst, at, st.objectID())
}

// PrependID inserts an _id ObjectId element at the front of the document
// that starts at buf[at:].
func PrependID(buf []byte, at int, oid bson.ObjectID) []byte {
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
