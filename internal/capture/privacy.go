package capture

import (
	"math"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/shape"
)

// Privacy: no value that identifies a person, an account or a secret
// leaves the source without --keep-values, whatever part of a command it
// sits in. Three rules make it so:
//
//  1. Every literal of a command is data (a placeholder, written by a
//     generator) but the options of a stage, a sort or a projection that
//     cannot identify anyone: booleans, numbers up to 1000 (and the larger
//     ones a stage's option takes: $limit, $skip, $sample's size), field
//     paths and the names a stage takes ($lookup's from and as, $unwind's
//     path). Strings
//     anywhere else ($addFields' constants, $search's query, a password
//     hash starting with $) and large numbers or dates are data.
//  2. A field's cardinality is judged over the data, not per placeholder:
//     over the collection's sample when it holds the field, else over every
//     occurrence of the field in the window, all shapes together; a field
//     of many values is private in every placeholder that touches it, and
//     so is any value that looks like an email, a card or social security
//     number, a person's name, a calendar date or a secret, alone or
//     among the words of a string, however often it was seen, and any
//     field whose name says it holds such data (a CVV, a street, a
//     password: secrets.go), even a constant one.
//  3. A range is never narrower than privacy allows: numbers of few
//     distinct values, and bounds that are whole numbers of 9 digits or
//     more (account, card, social security and phone numbers, but not
//     round ones, such as a week in milliseconds), widen to the decade of
//     their digits (a key generator's offset too); dates of few distinct
//     values, and calendar dates (all at midnight: birth dates), widen to
//     whole years (as HIPAA's Safe Harbor keeps the year, not the day).

// kAnonymous is how many distinct values a range must hold to be written
// as the values' own minimum and maximum.
const kAnonymous = 10

// isFieldPath: "$customer.id" or "$$NOW", a reference the aggregation
// language resolves, which is shape; a password hash ("$2b$12$...") or a
// price ("$12") is not one.
func isFieldPath(s string) bool {
	rest := strings.TrimPrefix(strings.TrimPrefix(s, "$"), "$")
	if rest == "" || len(s) > 256 || !strings.HasPrefix(s, "$") {
		return false
	}
	if c := rest[0]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	return !strings.ContainsAny(rest, "$ \t\n/\\")
}

// stageNames are the keys whose string values are names, not data: a
// collection, a field path or output field, an index, a unit.
var stageNames = map[string]bool{
	"from": true, "as": true, "localField": true, "foreignField": true, "path": true, "index": true,
	"$count": true, "$meta": true, "includeArrayIndex": true, "connectFromField": true, "connectToField": true,
	"depthField": true, "startWith": true, "unit": true, "format": true, "timezone": true, "to": true,
	"$type": true, "coll": true, "db": true, "into": true, "on": true, "whenMatched": true, "whenNotMatched": true,
	"$unwind": true, "$sortByCount": true, "$replaceWith": true, "newRoot": true, "partitionBy": true,
	"granularity": true, "onError": true, "onNull": true, "order": true,
}

// shapeLiteral reports whether the literal v at path is part of the
// shape, written as it is, rather than data (rule 1).
func shapeLiteral(path string, v bson.RawValue) bool {
	if s, ok := v.StringValueOK(); ok && isFieldPath(s) && (!shape.InQuery(path) || strings.Contains(path, "$expr")) {
		return true
	}
	if shape.InQuery(path) {
		return false
	}
	switch v.Type {
	case bson.TypeBoolean, bson.TypeNull, bson.TypeUndefined, bson.TypeMinKey, bson.TypeMaxKey:
		return true
	case bson.TypeInt32, bson.TypeInt64, bson.TypeDouble:
		// A small number is an option (a sort direction, $sum: 1, a
		// threshold); a larger one compared with a field may be a
		// customer's id, unless a stage's option takes it.
		// Under a field whose name says it is private ($addFields:
		// {cvv: 937}) only a flag is: a projection's or a sort's 0, 1, -1.
		x := mongodb.Number(v)
		option := !math.IsNaN(x) && (math.Abs(x) <= 1000 || math.Abs(x) < 1e8 && numericOption(path))
		return option && (math.Abs(x) <= 1 || !sensitiveName(fieldOf(path)))
	case bson.TypeString:
		// A stage's name ($lookup's from, $dateToString's onNull) is
		// shape, unless it looks like data: it is then a placeholder,
		// as everywhere else.
		key := path[strings.LastIndexByte(path, '.')+1:]
		return stageNames[key] && !stringIdentifies(v.StringValue())
	}
	return false
}

// numericOption: the number at path is a stage's option ($limit, $skip,
// $sample's size, $bucket's boundaries, $slice), never data.
func numericOption(path string) bool {
	parts := strings.Split(path, ".")
	for i := len(parts) - 1; i >= 0 && i >= len(parts)-3; i-- {
		switch parts[i] {
		case "$limit", "$skip", "size", "$slice", "boundaries", "buckets", "n", "maxDepth", "numCandidates":
			return true
		}
	}
	return false
}

// identifying reports whether a value seen of f looks like it names a
// person, an account or a secret, whatever its cardinality (rule 2).
func (f *Field) identifying() bool {
	for _, v := range f.values {
		if valueIdentifies(v) {
			return true
		}
	}
	for _, s := range f.strs {
		if stringIdentifies(s) {
			return true
		}
	}
	return false
}

// fewValues: the values seen are too few to show their own extremes.
func (f *Field) fewValues() bool {
	return !f.overflow && len(f.distinct) < kAnonymous
}

// privateRange widens [lo, hi] to the decades of their digits when the
// values are few or identifying (rule 3).
func (f *Field) privateRange(o genOptions) (float64, float64) {
	lo, hi := minMax(f.nums)
	if o.keepValues || !(f.fewValues() || numberIdentifies(lo) || numberIdentifies(hi)) {
		return lo, hi
	}
	return decadeLow(lo), decadeHigh(hi)
}

// decadeLow is the smallest number of x's digits (-999 for -123, 100 for
// 123, 0 under 10); decadeHigh the largest.
func decadeLow(x float64) float64 {
	if x < 0 {
		return -decadeHigh(-x)
	}
	if x < 10 {
		return 0
	}
	return math.Pow(10, math.Floor(math.Log10(x)))
}

func decadeHigh(x float64) float64 {
	if x < 0 {
		return -decadeLow(-x)
	}
	if x < 10 {
		return 9
	}
	return math.Pow(10, math.Floor(math.Log10(x))+1) - 1
}

// privateDates widens a few dates, and calendar dates (all at midnight:
// birth dates, not events), to the whole years that hold them.
func (f *Field) privateDates(o genOptions) (float64, float64) {
	lo, hi := minMax(f.nums)
	if o.keepValues || !f.fewValues() && !f.calendarDates() {
		return lo, hi
	}
	from := time.UnixMilli(int64(lo)).UTC()
	to := time.UnixMilli(int64(hi)).UTC()
	a := time.Date(from.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	b := time.Date(to.Year()+1, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Millisecond)
	return float64(a.UnixMilli()), float64(min(b.UnixMilli(), source.MaxDateMS))
}

// fieldOf is the field a placeholder's path stands for: its path without
// the part it is in (filter, pipeline.0.$match, projection), operators,
// indexes and $in's [] (filter.a.$in.[] and pipeline.0.$match.a are a).
func fieldOf(path string) string {
	var out []string
	for _, p := range strings.Split(path, ".")[1:] {
		if strings.HasPrefix(p, "$") || p == "[]" || strings.Trim(p, "0123456789") == "" {
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, ".")
}

// privateFields judges each field's cardinality over the data (rule 2),
// by namespace and fieldOf: the collection's sample when it holds the
// field, else every occurrence of the field in every shape of the window.
func privateFields(shapes []*Shape, cols []*Collection) map[string]map[string]bool {
	seen := map[string]map[string]*Field{} // ns -> field -> all its placeholders' values
	for _, sh := range shapes {
		ns := sh.DB + "." + sh.Coll
		if seen[ns] == nil {
			seen[ns] = map[string]*Field{}
		}
		for _, p := range sh.HoleOrder {
			name := fieldOf(p)
			u := seen[ns][name]
			if u == nil {
				u = newField()
				seen[ns][name] = u
			}
			u.merge(sh.Holes[p])
		}
	}
	out := map[string]map[string]bool{}
	for ns, fields := range seen {
		out[ns] = map[string]bool{}
		var col *Collection
		for _, c := range cols {
			if c.DB+"."+c.Name == ns {
				col = c
			}
		}
		for name, u := range fields {
			if m := col.model("x." + name); m != nil {
				u = m
			}
			out[ns][name] = !u.lowCardinality() || u.identifying() || sensitiveName(name)
		}
	}
	return out
}

// merge adds g's distinct values and counts to f (for cardinality only).
func (f *Field) merge(g *Field) {
	f.N += g.N
	f.Nulls += g.Nulls
	if g.overflow {
		f.overflow, f.distinct, f.values = true, nil, nil
	}
	if f.overflow {
		return
	}
	if f.distinct == nil {
		f.distinct, f.values = map[string]int{}, map[string]bson.RawValue{}
	}
	for k, n := range g.distinct {
		if _, ok := f.distinct[k]; !ok && len(f.distinct) >= maxDistinct {
			f.overflow, f.distinct, f.values = true, nil, nil
			return
		}
		f.distinct[k] += n
		f.values[k] = g.values[k]
	}
}

// calendarDates: every date seen is at midnight UTC, a day rather than an
// event's time (a birth date), whose extremes would name a person's day.
func (f *Field) calendarDates() bool {
	for _, x := range f.nums {
		if math.Mod(x, 86400000) != 0 {
			return false
		}
	}
	return len(f.nums) > 0
}
