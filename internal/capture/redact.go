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
// operators and array indexes.
func redactPath(p string) string {
	parts := strings.Split(p, ".")
	for i, s := range parts {
		if s == "" || strings.HasPrefix(s, "$") || strings.Trim(s, "0123456789") == "" {
			continue
		}
		parts[i] = hashName("f", s)
	}
	return strings.Join(parts, ".")
}

func redactValue(v config.Value) config.Value {
	switch v.Kind {
	case config.KindDoc:
		out := v
		out.Fields = make([]config.Field, len(v.Fields))
		for i, f := range v.Fields {
			out.Fields[i] = config.Field{Key: redactPath(f.Key), Value: redactValue(f.Value)}
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
			out.Items[i] = redactValue(it)
		}
		return out
	case config.KindScalar:
		if s, ok := v.Scalar.(string); ok && strings.HasPrefix(s, "$") && !strings.HasPrefix(s, "$$") {
			v.Scalar = "$" + redactPath(s[1:])
		}
	}
	return v
}
