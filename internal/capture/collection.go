package capture

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
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
	// Timeseries is its definition when it is a time-series collection.
	Timeseries *config.Timeseries
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
// generator, the keyed fields (keys.go) made from keys, the fields that
// keep their frequency law (ranks.go) drawn by rank, and an integer _id
// from keys too, since random integers would collide.
func (c *Collection) Template(o genOptions, keys []keyed, laws map[string]*rankLaw) config.Value {
	t := c.Root.document(o)
	for i, fl := range t.Fields {
		if law := laws[fl.Key]; law != nil {
			t.Fields[i].Value = c.Root.Fields[fl.Key].withAbsence(law.docGen(), c.Root.docs)
		}
	}
	if id := c.Root.Fields["_id"]; id != nil && !slices.ContainsFunc(keys, func(k keyed) bool { return k.field == "_id" }) {
		if g, ok := keyGen(id); ok && id.dominant() != bson.TypeObjectID {
			keys = append(keys, keyed{field: "_id", gen: g})
		}
	}
	for _, k := range keys {
		i := slices.IndexFunc(t.Fields, func(f config.Field) bool { return f.Key == k.field })
		if i < 0 {
			t.Fields = append(t.Fields, config.Field{Key: k.field, Value: k.gen})
			continue
		}
		t.Fields[i].Value = k.gen
	}
	return t
}

// IndexSpecs writes the indexes but _id's: keys, unique, sparse, TTL and
// partial filter; what a workload cannot carry is in the notes. An index
// whose partial filter holds a value that identifies (privacy.go) is not
// written without keepValues: its filter would carry the value out.
func (c *Collection) IndexSpecs(keepValues bool) (out []config.Index, notes []string) {
	for _, ix := range c.Indexes {
		name, _ := ix.Lookup("name").StringValueOK()
		if name == "_id_" {
			continue
		}
		spec := config.Index{Name: name, Keys: literal(ix.Lookup("key"))}
		spec.Unique, _ = ix.Lookup("unique").BooleanOK()
		spec.Sparse, _ = ix.Lookup("sparse").BooleanOK()
		if v := ix.Lookup("expireAfterSeconds"); v.Type != 0 {
			spec.TTL = config.Duration(time.Duration(math.Round(mongodb.Number(v))) * time.Second)
		}
		if p, ok := ix.Lookup("partialFilterExpression").DocumentOK(); ok {
			if !keepValues && literalsIdentify("", source.DocValue(p)) {
				notes = append(notes, "index "+name+": not written: its partial filter holds a value that could identify a person, an account or a secret (--keep-values writes it)")
				continue
			}
			spec.Partial = literal(source.DocValue(p))
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

// withAbsence adds to a field's generator the chance that the field is
// null, and that it is missing from a document of the docs seen.
func (f *Field) withAbsence(v config.Value, docs int) config.Value {
	if f.Nulls > 0 {
		v.Fields = append(v.Fields, param("nullProbability", round(float64(f.Nulls)/float64(f.N), 4)))
	}
	if miss := 1 - float64(f.Present)/float64(max(1, docs)); miss > 0.0005 {
		v.Fields = append(v.Fields, param("missingProbability", round(miss, 4)))
	}
	return v
}

// literalsIdentify says whether a value of v (at path) identifies, or
// sits under a field whose name says it is private (secrets.go).
func literalsIdentify(path string, v bson.RawValue) bool {
	switch v.Type {
	case bson.TypeEmbeddedDocument, bson.TypeArray:
		els, _ := bson.Raw(v.Value).Elements()
		for _, e := range els {
			if literalsIdentify(path+"."+e.Key(), e.Value()) {
				return true
			}
		}
		return false
	case bson.TypeString, bson.TypeInt32, bson.TypeInt64, bson.TypeDouble, bson.TypeDateTime, bson.TypeDecimal128:
		if op := path[strings.LastIndexByte(path, '.')+1:]; op == "$type" || op == "$exists" {
			return false // a type's name or number: shape
		}
		return valueIdentifies(v) || sensitiveName(path)
	}
	return valueIdentifies(v)
}
