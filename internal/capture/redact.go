package capture

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

// redact replaces database, collection and field names, and the
// operations' names made from them, by stable hashes (--redact-names):
// the same name gives the same hash in every capture, so two captures of
// one deployment still line up. Values are left as they are: privacy of
// values is the job of the value models.
func redact(cfg *config.Config) {
	for i := range cfg.Collections {
		c := &cfg.Collections[i]
		c.Database, c.Name = hashName("db", c.Database), hashName("c", c.Name)
		c.Template = redactValue(c.Template)
		for j := range c.Indexes {
			ix := &c.Indexes[j]
			ix.Name = ""
			ix.Keys, ix.Partial = redactValue(ix.Keys), redactValue(ix.Partial)
		}
	}
	for i := range cfg.Operations {
		op := &cfg.Operations[i]
		db, coll, _ := strings.Cut(op.Collection, ".")
		op.Collection = hashName("db", db) + "." + hashName("c", coll)
		op.Name = fmt.Sprintf("%s_%d", strings.SplitN(op.Type, "_", 2)[0], i+1)
		for _, v := range []*config.Value{&op.Filter, &op.Update, &op.Document, &op.Projection, &op.Sort, &op.Pipeline} {
			*v = redactValue(*v)
		}
	}
}

// hashName is prefix_ and 8 hex digits of FNV-1a of name.
func hashName(prefix, name string) string {
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%s_%08x", prefix, h.Sum32())
}

// redactPath hashes each segment of a dotted field path, keeping
// operators, array indexes and _id (which every collection has: hashing
// it would make a field the replay's documents do not index).
func redactPath(p string) string {
	parts := strings.Split(p, ".")
	for i, s := range parts {
		if s == "" || s == "_id" || strings.HasPrefix(s, "$") || strings.Trim(s, "0123456789") == "" {
			continue
		}
		parts[i] = hashName("f", s)
	}
	return strings.Join(parts, ".")
}

// fieldKeyed are the operators whose document's keys are field names (a
// stage's output fields, an update's targets, a query's fields); under
// any other operator ($lookup, $unwind, $search, $dateToString) the keys
// are the operator's own arguments, which must stay as they are for the
// stage to run.
var fieldKeyed = map[string]bool{
	"$match": true, "$project": true, "$addFields": true, "$set": true, "$group": true, "$sort": true,
	"$facet": true, "$elemMatch": true, "$and": true, "$or": true, "$nor": true, "$not": true,
	"$inc": true, "$unset": true, "$push": true, "$addToSet": true, "$pull": true, "$pullAll": true, "$pop": true,
	"$min": true, "$max": true, "$mul": true, "$rename": true, "$setOnInsert": true, "$currentDate": true, "$bit": true,
	"output": true, "sortBy": true,
}

// Arguments whose string value names a collection, or a field.
var (
	collectionArgs = map[string]bool{"from": true, "coll": true}
	fieldArgs      = map[string]bool{"localField": true, "foreignField": true, "path": true, "connectFromField": true,
		"connectToField": true, "depthField": true, "includeArrayIndex": true, "$count": true}
)

// redactValue hashes the names in v; fields says whether the keys of a
// document at this place are field names, op is the operator whose
// arguments they are otherwise.
func redactValue(v config.Value) config.Value { return redactIn(v, true, "") }

func redactIn(v config.Value, fields bool, op string) config.Value {
	switch v.Kind {
	case config.KindDoc:
		out := v
		out.Fields = make([]config.Field, len(v.Fields))
		for i, f := range v.Fields {
			key, val := f.Key, f.Value
			switch {
			case strings.HasPrefix(key, "$"):
				val = redactIn(val, fieldKeyed[key], key)
				if key == "$count" {
					val = redactName(val, "f")
				}
			case fields:
				key, val = redactPath(key), redactIn(val, true, "")
			case collectionArgs[key]:
				val = redactName(val, "c")
			case fieldArgs[key], key == "as" && (op == "$lookup" || op == "$graphLookup"):
				val = redactName(val, "f")
			case key == "pipeline":
				val = redactIn(val, true, "")
			default:
				val = redactIn(val, fieldKeyed[key], key)
			}
			out.Fields[i] = config.Field{Key: key, Value: val}
		}
		return out
	case config.KindGen:
		out := v
		out.Fields = make([]config.Field, len(v.Fields))
		for i, f := range v.Fields {
			out.Fields[i] = config.Field{Key: f.Key, Value: redactValue(f.Value)}
			if f.Key == "collection" && f.Value.Kind == config.KindScalar {
				out.Fields[i].Value.Scalar = hashName("c", fmt.Sprint(f.Value.Scalar))
			}
		}
		return out
	case config.KindArray:
		out := v
		out.Items = make([]config.Value, len(v.Items))
		for i, it := range v.Items {
			out.Items[i] = redactIn(it, fields, op)
		}
		return out
	case config.KindScalar:
		if s, ok := v.Scalar.(string); ok && strings.HasPrefix(s, "$") && !strings.HasPrefix(s, "$$") {
			v.Scalar = "$" + redactPath(s[1:])
		}
	}
	return v
}

// redactName hashes a string naming a collection ("c") or a field ("f",
// a path with or without its $).
func redactName(v config.Value, kind string) config.Value {
	s, ok := v.Scalar.(string)
	if v.Kind != config.KindScalar || !ok {
		return redactIn(v, false, "")
	}
	switch {
	case kind == "c":
		v.Scalar = hashName("c", s)
	case strings.HasPrefix(s, "$$"):
	case strings.HasPrefix(s, "$"):
		v.Scalar = "$" + redactPath(s[1:])
	default:
		v.Scalar = redactPath(s)
	}
	return v
}

// NameOf is a database's name as a capture writes it: hashed with
// --redact-names.
func NameOf(db string, redact bool) string {
	if redact {
		return hashName("db", db)
	}
	return db
}
