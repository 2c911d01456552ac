package generate

import (
	"encoding/binary"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// loadDoc is what a loader pins while it generates the document of one
// key: the key that the template's own key generators return, and what the
// document's ObjectIds derive from.
type loadDoc struct {
	ks    *KeySpace
	key   int64
	epoch uint32 // seconds: the timestamp of the derived ObjectIds
	oids  uint32 // ObjectIds made so far in this document
	ts    uint32 // timestamps made so far in this document
	on    bool
}

// BeginDocument makes st generate the document of key in ks, the same
// document whichever worker makes it and however often, so that a load
// can redo a range of keys after an interruption without writing anything
// different: the template's key generators of ks return key (instead of
// taking a new key), the random source is reseeded from (seed, key), and
// ObjectIds derive from (epoch, key) instead of the clock. The first
// ObjectId of the document is epoch followed by the key, big-endian, so
// loaded _id values are unique and ascend with the key; later ones take
// their last eight bytes from the reseeded random source. now stands for
// epoch plus key milliseconds, and timestamp for its second. epoch is
// LoadEpoch of the load's seed, so two makings are the same byte for byte.
//
// Call it before each document; EndDocuments ends it.
func (st *State) BeginDocument(ks *KeySpace, key int64, seed uint64, epoch uint32) {
	st.load = loadDoc{ks: ks, key: key, epoch: epoch, on: true}
	s := splitmix(seed ^ splitmix(uint64(key)))
	st.pcg.Seed(s, splitmix(s^0x6a09e667f3bcc909))
}

// EndDocuments returns st to ordinary generation: new keys and fresh
// ObjectIds. The random source stays where the last document left it.
func (st *State) EndDocuments() { st.load = loadDoc{} }

// pinnedKey returns the key BeginDocument pinned for ks, if any.
func (st *State) pinnedKey(ks *KeySpace) (int64, bool) {
	if st.load.on && st.load.ks == ks {
		return st.load.key, true
	}
	return 0, false
}

// loadObjectID returns the next ObjectId of the document being loaded, if
// a document is (see BeginDocument).
func (st *State) loadObjectID() (bson.ObjectID, bool) {
	var oid bson.ObjectID
	if st == nil || !st.load.on {
		return oid, false
	}
	binary.BigEndian.PutUint32(oid[:4], st.load.epoch)
	if st.load.oids == 0 {
		binary.BigEndian.PutUint64(oid[4:], uint64(st.load.key))
	} else {
		binary.BigEndian.PutUint64(oid[4:], st.Rand.Uint64())
	}
	st.load.oids++
	return oid, true
}

// LoadObjectID is the ObjectId a loaded document of key gets as _id when
// its template has none: the first ObjectId BeginDocument would derive.
func LoadObjectID(epoch uint32, key int64) bson.ObjectID {
	var oid bson.ObjectID
	binary.BigEndian.PutUint32(oid[:4], epoch)
	binary.BigEndian.PutUint64(oid[4:], uint64(key))
	return oid
}
