package ab

import (
	"reflect"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// TestIndexDiffs: indexes are matched by key pattern (names aside); each
// one side lacks is named, and so is each whose options differ.
func TestIndexDiffs(t *testing.T) {
	id := mongodb.IndexInfo{Name: "_id_", Keys: "{_id: 1}"}
	org := mongodb.IndexInfo{Name: "org_1", Keys: "{org: 1}"}
	a := []mongodb.IndexInfo{id, org, {Name: "q", Keys: "{qty: -1}", Unique: true}, {Name: "n", Keys: "{note: 1}", Collation: "fr strength 2"}}
	b := []mongodb.IndexInfo{id, {Name: "another_name", Keys: "{qty: -1}"}, {Name: "n", Keys: "{note: 1}"}, {Name: "p", Keys: "{org: 1, qty: 1}", Partial: `{"qty":{"$gt":0}}`}}
	want := []string{
		"B lacks the index {org: 1} (org_1) that A has",
		"the index {qty: -1} differs: A unique, B without options",
		"the index {note: 1} differs: A collation fr strength 2, B without options",
		`B has an index A lacks: {org: 1, qty: 1} (p, partial {"qty":{"$gt":0}})`,
	}
	if got := indexDiffs(a, b); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if got := indexDiffs(a, a); got != nil {
		t.Errorf("the same set differs: %q", got)
	}
}

// TestKeyText: a key pattern reads the same whatever its numbers' BSON
// types, so 1, 1.0 and NumberLong(1) are one index.
func TestKeyText(t *testing.T) {
	for _, keys := range []bson.D{
		{{Key: "org", Value: int32(1)}, {Key: "qty", Value: int32(-1)}},
		{{Key: "org", Value: 1.0}, {Key: "qty", Value: -1.0}},
		{{Key: "org", Value: int64(1)}, {Key: "qty", Value: int64(-1)}},
	} {
		raw, err := bson.Marshal(keys)
		if err != nil {
			t.Fatal(err)
		}
		if got := mongodb.KeyText(raw); got != "{org: 1, qty: -1}" {
			t.Errorf("%v: %s", keys, got)
		}
	}
	raw, _ := bson.Marshal(bson.D{{Key: "loc", Value: "2dsphere"}})
	if got := mongodb.KeyText(raw); got != `{loc: "2dsphere"}` {
		t.Errorf("a string direction: %s", got)
	}
}
