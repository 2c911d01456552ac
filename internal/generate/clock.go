package generate

import (
	"encoding/binary"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// The generators that would follow the clock (objectId; in a load also now,
// timestamp and cycle) follow a time base that a seed fixes instead, so
// the same seed gives the same data whenever it runs. A load's base lies
// in [2020-01-01, 2022-02-16), a run's after it, in [2022-02-16,
// 2024-04-03), so that the documents a run inserts sort, by _id, after
// those a load wrote.
const (
	baseFrom = 1577836800 // 2020-01-01T00:00:00Z, in seconds
	baseSpan = 1 << 26    // seconds: about two years and one month
)

// LoadEpoch is the time base of a load of seed, in seconds: the timestamp
// of its documents' ObjectIds, and the time now stands for in them.
func LoadEpoch(seed uint64) uint32 {
	return baseFrom + uint32(splitmix(seed^0x6c6f6164)%baseSpan) // "load"
}

// runEpoch is the timestamp of the ObjectIds the workers of a run of seed
// (its operation seed) make.
func runEpoch(seed uint64) uint32 {
	return baseFrom + baseSpan + uint32(splitmix(seed^0x72756e)%baseSpan) // "run"
}

// objectIDs makes a worker's ObjectIds outside a load: runEpoch, then a
// count of the worker's ObjectIds (5 bytes), then its stream (3 bytes).
// Unique among the workers of a run (each has its own stream), the same
// for two runs of one seed (both sides of an A/B insert the same _ids),
// other for another seed (its epoch and stream bytes differ), and
// ascending in each worker's order of making.
type objectIDs struct {
	epoch  uint32
	stream uint32 // 24 bits
	n      uint64
}

func newObjectIDs(seed, stream uint64) objectIDs {
	s := stream ^ stream>>24 ^ stream>>48 ^ splitmix(seed)
	return objectIDs{epoch: runEpoch(seed), stream: uint32(s) & 0xffffff}
}

func (o *objectIDs) next() bson.ObjectID {
	var oid bson.ObjectID
	binary.BigEndian.PutUint32(oid[:4], o.epoch)
	o.n++
	binary.BigEndian.PutUint64(oid[4:], o.n<<24|uint64(o.stream))
	return oid
}

// objectID is the next ObjectId st makes: derived from the key of the
// document being loaded (BeginDocument), else the worker's next.
func (st *State) objectID() bson.ObjectID {
	if oid, ok := st.loadObjectID(); ok {
		return oid
	}
	return st.ids.next()
}

// nowMillis is the time now stands for, in milliseconds since 1970: in a
// loaded document of key k, the load's epoch plus k milliseconds (the same
// whenever it is made, and ascending with the key); elsewhere the clock.
func (st *State) nowMillis() int64 {
	if st.load.on {
		return int64(st.load.epoch)*1000 + st.load.key
	}
	return time.Now().UnixMilli()
}

// appendTimestamp appends a BSON timestamp: nowMillis's second and an
// increment that counts up, per worker (or, in a load, per document), so
// that timestamps made in one second stay distinct.
func (st *State) appendTimestamp(dst []byte) []byte {
	if st.load.on {
		st.load.ts++
		return bsoncore.AppendTimestamp(dst, uint32(st.nowMillis()/1000), st.load.ts)
	}
	st.tsInc++
	return bsoncore.AppendTimestamp(dst, uint32(time.Now().Unix()), st.tsInc)
}
