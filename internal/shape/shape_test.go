package shape

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func raw(t testing.TB, ext string) bson.Raw {
	t.Helper()
	var r bson.Raw
	if err := bson.UnmarshalExtJSON([]byte(ext), false, &r); err != nil {
		t.Fatalf("%v: %s", err, ext)
	}
	return r
}

func TestFilterShape(t *testing.T) {
	tests := []struct{ filter, want string }{
		// The brief's example: values become their types, operators stay.
		{`{"flight_id": {"$numberLong": "7"}, "seats_available": {"$gt": {"$numberInt": "0"}}}`, `{flight_id: <int64>, seats_available: {$gt: <int32>}}`},
		// An empty filter.
		{`{}`, `{}`},
		// $in lists of any length share a shape: the set of their types.
		{`{"k": {"$in": [{"$numberLong": "1"}, {"$numberLong": "2"}, {"$numberLong": "3"}]}}`, `{k: {$in: [<int64>]}}`},
		{`{"k": {"$in": ["a", {"$numberInt": "2"}]}}`, `{k: {$in: [<int32>|<string>]}}`},
		// An embedded document the field must equal is one value.
		{`{"equipment": {"plane_type": "Boeing 737"}}`, `{equipment: <object>}`},
		// Dotted paths, strings, dates, booleans, null.
		{`{"equipment.plane_type": "A320", "d": {"$date": "2026-01-01T00:00:00Z"}, "ok": true, "gone": null}`, `{equipment.plane_type: <string>, d: <date>, ok: <bool>, gone: <null>}`},
		// Logical operators hold filters.
		{`{"$or": [{"a": {"$numberInt": "1"}}, {"b": {"$lt": 2.5}}]}`, `{$or: [{a: <int32>}, {b: {$lt: <double>}}]}`},
		// $not and $elemMatch recurse; ranges keep both bounds.
		{`{"a": {"$not": {"$gt": {"$numberInt": "1"}}}, "p": {"$elemMatch": {"seat": "1A", "n": {"$gte": {"$numberInt": "1"}}}}}`, `{a: {$not: {$gt: <int32>}}, p: {$elemMatch: {seat: <string>, n: {$gte: <int32>}}}}`},
		{`{"x": {"$gte": {"$numberInt": "1"}, "$lt": {"$numberInt": "9"}}}`, `{x: {$gte: <int32>, $lt: <int32>}}`},
		// A field name that needs quotes.
		{`{"a b": {"$oid": "000000000000000000000000"}}`, `{"a b": <objectId>}`},
		// $expr keeps field paths.
		{`{"$expr": {"$gt": ["$spent", "$budget"]}}`, `{$expr: {$gt: ["$spent", "$budget"]}}`},
	}
	for _, tt := range tests {
		if got := FilterShape(raw(t, tt.filter)); got != tt.want {
			t.Errorf("FilterShape(%s)\n got  %s\n want %s", tt.filter, got, tt.want)
		}
	}
	if got := FilterShape([]byte{1, 2}); got != "<invalid>" {
		t.Errorf("an invalid document = %q", got)
	}
}

func TestPipelineShape(t *testing.T) {
	// The default workload's aggregation: $match as a filter, field paths kept, literals typed.
	var pipeline bson.RawArray
	doc := raw(t, `{"p": [{"$match": {"seats_available": {"$lte": {"$numberInt": "7"}}}},
		{"$group": {"_id": "$destination", "flights": {"$sum": {"$numberInt": "1"}}, "seats": {"$sum": "$seats_available"}}},
		{"$sort": {"flights": {"$numberInt": "-1"}}}, {"$limit": {"$numberInt": "10"}}]}`)
	pipeline = doc.Lookup("p").Array()
	want := `[{$match: {seats_available: {$lte: <int32>}}}, {$group: {_id: "$destination", flights: {$sum: <int32>}, seats: {$sum: "$seats_available"}}}, {$sort: {flights: <int32>}}, {$limit: <int32>}]`
	if got := PipelineShape(pipeline); got != want {
		t.Errorf("PipelineShape\n got  %s\n want %s", got, want)
	}
}
