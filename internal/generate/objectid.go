package generate

import "go.mongodb.org/mongo-driver/v2/bson"

// objectIDGen makes fresh ObjectIds. They come from the driver's
// process-wide counter rather than the worker's random source: _id values
// must be unique across workers and processes, which a seeded source would
// not give. Like now and timestamp, they follow the clock, not the seed.
type objectIDGen struct{}

// Append implements Generator.
func (objectIDGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	if oid, ok := st.loadObjectID(); ok {
		return bson.TypeObjectID, append(dst, oid[:]...)
	}
	oid := bson.NewObjectID()
	return bson.TypeObjectID, append(dst, oid[:]...)
}

// buildObjectID: objectId, a new ObjectId.
func buildObjectID(p *params) (Generator, error) { return p.done(objectIDGen{}) }
