package capture

import (
	"math"
	"math/rand/v2"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// Collection is what capture learnt of one collection: its size, a
// sample of its documents and its indexes.
type Collection struct {
	DB, Name string
	Count    int64 // documents when sampled
	Size     int64 // bytes (collStats size)
	Sampled  int
	Root     *Field
	Indexes  []bson.Raw
	Notes    []string // what could not be read, and why
}

// NewCollection starts the model of db.name.
func NewCollection(db, name string) *Collection {
	return &Collection{DB: db, Name: name, Root: newField()}
}

// AddSample adds one sampled document.
func (c *Collection) AddSample(d bson.Raw, r *rand.Rand) {
	c.Sampled++
	c.Root.ObserveDoc(d, r)
}

// Template writes the collection's document template: each field's
// generator, the keyed field (if any) made from keys, and an integer _id
// from keys too when no other field is, since random integers would
// collide.
func (c *Collection) Template(o genOptions, key *keyed) config.Value {
	t := c.Root.document(o)
	if key == nil {
		if id := c.Root.Fields["_id"]; id != nil {
			if g, ok := keyGen(id); ok && id.dominant() != bson.TypeObjectID {
				key = &keyed{field: "_id", gen: g}
			}
		}
	}
	if key == nil {
		return t
	}
	for i, f := range t.Fields {
		if f.Key == key.field {
			t.Fields[i].Value = key.gen
			return t
		}
	}
	t.Fields = append([]config.Field{{Key: key.field, Value: key.gen}}, t.Fields...)
	return t
}

// IndexSpecs writes the indexes but _id's: keys, unique, sparse, TTL and
// partial filter; what a workload cannot carry is in the notes.
func (c *Collection) IndexSpecs() (out []config.Index, notes []string) {
	for _, ix := range c.Indexes {
		name, _ := ix.Lookup("name").StringValueOK()
		if name == "_id_" {
			continue
		}
		spec := config.Index{Name: name, Keys: literal(ix.Lookup("key"))}
		spec.Unique, _ = ix.Lookup("unique").BooleanOK()
		spec.Sparse, _ = ix.Lookup("sparse").BooleanOK()
		if v := ix.Lookup("expireAfterSeconds"); v.Type != 0 {
			spec.TTL = config.Duration(time.Duration(math.Round(num(v))) * time.Second)
		}
		if p, ok := ix.Lookup("partialFilterExpression").DocumentOK(); ok {
			spec.Partial = literal(docValue(p))
		}
		for _, k := range []string{"collation", "weights", "2dsphereIndexVersion", "wildcardProjection"} {
			if ix.Lookup(k).Type != 0 {
				notes = append(notes, "index "+name+": its "+k+" is not carried over")
			}
		}
		out = append(out, spec)
	}
	return out, notes
}
