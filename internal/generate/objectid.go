package generate

import "go.mongodb.org/mongo-driver/v2/bson"

// objectIDGen makes ObjectIds from the worker's seeded state, not the
// clock (clock.go): derived from the key in a load, from the run's
// operation seed, the worker and a count elsewhere. Unique across the
// workers of a run, and the same for two runs of one seed.
type objectIDGen struct{}

// Append implements Generator.
func (objectIDGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	oid := st.objectID()
	return bson.TypeObjectID, append(dst, oid[:]...)
}

// buildObjectID: objectId, an ObjectId of the worker's (see objectIDGen).
func buildObjectID(p *params) (Generator, error) { return p.done(objectIDGen{}) }
