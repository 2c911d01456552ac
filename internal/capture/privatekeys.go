package capture

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

// Field names can be data too: a document keyed by its users' emails
// ({prefs: {"zelda@example.test": true}}), by people's names. Without
// --keep-values such a name is written as a stable hash (hashName, as
// --redact-names writes every name), wherever it appears: the template,
// the operations' filters, updates, projections, sorts and pipelines
// (field paths in expressions included), the indexes, the operations'
// names and the comments (shape lines too). The other names stay.

// privateKeys rewrites, in place, every name in w that identifies
// (stringIdentifies: the whole name, or one segment of a path).
func privateKeys(w *Workload) {
	seen := map[string]string{} // name or segment -> its hash
	rename := func(k string) string { return privateName(k, seen) }
	cfg := w.Config
	for i := range cfg.Collections {
		c := &cfg.Collections[i]
		c.Template = renameKeys(c.Template, rename)
		for j := range c.Indexes {
			c.Indexes[j].Keys, c.Indexes[j].Partial = renameKeys(c.Indexes[j].Keys, rename), renameKeys(c.Indexes[j].Partial, rename)
		}
	}
	for i := range cfg.Operations {
		op := &cfg.Operations[i]
		for _, v := range []*config.Value{&op.Filter, &op.Update, &op.Document, &op.Projection, &op.Sort, &op.Pipeline} {
			*v = renameKeys(*v, rename)
		}
	}
	if len(seen) == 0 {
		return
	}
	// The same names in the operations' and indexes' names (where a dot
	// is an underscore) and in the comments: longest first, so that a
	// path is replaced before a segment of it.
	var olds []string
	for old := range seen {
		olds = append(olds, old)
		if u := strings.ReplaceAll(old, ".", "_"); u != old {
			seen[u] = seen[old]
			olds = append(olds, u)
		}
	}
	slices.SortFunc(olds, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	var pairs []string
	for _, old := range olds {
		pairs = append(pairs, old, seen[old])
	}
	r := strings.NewReplacer(pairs...)
	for i := range cfg.Operations {
		cfg.Operations[i].Name = r.Replace(cfg.Operations[i].Name)
	}
	for i := range cfg.Collections {
		for j := range cfg.Collections[i].Indexes {
			cfg.Collections[i].Indexes[j].Name = r.Replace(cfg.Collections[i].Indexes[j].Name)
		}
	}
	for _, notes := range [][][]string{w.OpNotes, w.ColNotes} {
		for _, lines := range notes {
			for j := range lines {
				lines[j] = r.Replace(lines[j])
			}
		}
	}
}

// privateName is k with the parts that identify hashed: the whole name
// when it does (an email holds dots), else each segment of its path that
// does; seen records each hashed part.
func privateName(k string, seen map[string]string) string {
	if stringIdentifies(k) {
		seen[k] = hashName("f", k)
		return seen[k]
	}
	parts := strings.Split(k, ".")
	for i, p := range parts {
		if stringIdentifies(p) {
			seen[p] = hashName("f", p)
			parts[i] = seen[p]
		}
	}
	return strings.Join(parts, ".")
}

// renameKeys renames the keys of v's documents, and the field paths
// among its strings ("$prefs.Zelda Quixote"), with rename; a generator's
// own parameters are kept (its values are walked).
func renameKeys(v config.Value, rename func(string) string) config.Value {
	switch v.Kind {
	case config.KindDoc, config.KindGen:
		out := v
		out.Fields = make([]config.Field, len(v.Fields))
		for i, f := range v.Fields {
			key := f.Key
			if v.Kind == config.KindDoc && !strings.HasPrefix(key, "$") {
				key = rename(key)
			}
			out.Fields[i] = config.Field{Key: key, Value: renameKeys(f.Value, rename)}
		}
		return out
	case config.KindArray:
		out := v
		out.Items = make([]config.Value, len(v.Items))
		for i, it := range v.Items {
			out.Items[i] = renameKeys(it, rename)
		}
		return out
	case config.KindScalar:
		if s, ok := v.Scalar.(string); ok && isFieldPath(s) && !strings.HasPrefix(s, "$$") {
			v.Scalar = "$" + rename(s[1:])
		}
	}
	return v
}
