package mongodb

import (
	"context"
	"fmt"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/workload"
)

// indexset.go: the indexes a collection holds, read (never changed), so
// that setup can say which of the workload's are missing where it leaves
// them alone, and ab can compare two deployments' index sets.

// IndexInfo is one index as listIndexes describes it.
type IndexInfo struct {
	Name string
	// Keys is the key pattern as text, each value as a number or a
	// string whatever its BSON type: {org: 1, qty: -1}.
	Keys      string
	Unique    bool
	Sparse    bool
	TTL       int64  // expireAfterSeconds; 0 for none
	Partial   string // the partialFilterExpression, as relaxed extended JSON
	Collation string // the collation's locale and strength, "" for simple
}

// Options is the index's options that change what it holds or refuses,
// in words ("unique, partial {...}"); "" for none.
func (ix IndexInfo) Options() string {
	var parts []string
	if ix.Unique {
		parts = append(parts, "unique")
	}
	if ix.Sparse {
		parts = append(parts, "sparse")
	}
	if ix.TTL > 0 {
		parts = append(parts, fmt.Sprintf("TTL %d s", ix.TTL))
	}
	if ix.Partial != "" {
		parts = append(parts, "partial "+ix.Partial)
	}
	if ix.Collation != "" {
		parts = append(parts, "collation "+ix.Collation)
	}
	return strings.Join(parts, ", ")
}

// String is the index as a user writes it: {org: 1} (org_1, unique).
func (ix IndexInfo) String() string {
	s := ix.Keys + " (" + ix.Name
	if o := ix.Options(); o != "" {
		s += ", " + o
	}
	return s + ")"
}

// ListIndexes reads the indexes of database.name; none (and no error)
// when the collection does not exist.
func (cl *Client) ListIndexes(ctx context.Context, database, name string) ([]IndexInfo, error) {
	cur, err := cl.c.Database(database).Collection(name).Indexes().List(ctx)
	if err != nil {
		if hasCode(err, codeNamespaceNotFound) {
			return nil, nil
		}
		return nil, fmt.Errorf("list the indexes of %s.%s: %s", database, name, firstLine(err))
	}
	defer cur.Close(ctx)
	var out []IndexInfo
	for cur.Next(ctx) {
		out = append(out, indexInfo(cur.Current))
	}
	if err := cur.Err(); err != nil {
		return nil, fmt.Errorf("list the indexes of %s.%s: %s", database, name, firstLine(err))
	}
	return out, nil
}

// codeNamespaceNotFound: listIndexes on a collection that does not exist.
const codeNamespaceNotFound = 26

func indexInfo(d bson.Raw) IndexInfo {
	ix := IndexInfo{}
	ix.Name, _ = d.Lookup("name").StringValueOK()
	if k, ok := d.Lookup("key").DocumentOK(); ok {
		ix.Keys = KeyText(k)
	}
	ix.Unique, _ = d.Lookup("unique").BooleanOK()
	ix.Sparse, _ = d.Lookup("sparse").BooleanOK()
	ix.TTL = int64(Number(d.Lookup("expireAfterSeconds")))
	if p, ok := d.Lookup("partialFilterExpression").DocumentOK(); ok {
		ix.Partial = extJSON(p)
	}
	if c, ok := d.Lookup("collation").DocumentOK(); ok {
		locale, _ := c.Lookup("locale").StringValueOK()
		if locale != "" && locale != "simple" {
			ix.Collation = locale
			if s := Number(c.Lookup("strength")); s > 0 {
				ix.Collation += fmt.Sprintf(" strength %d", int(s))
			}
		}
	}
	return ix
}

// KeyText writes a key pattern the same way whatever the BSON types of
// its values (1, 1.0 and NumberLong(1) are one direction): {org: 1}.
func KeyText(keys bson.Raw) string {
	elems, _ := keys.Elements()
	parts := make([]string, 0, len(elems))
	for _, e := range elems {
		v := e.Value()
		text := v.String()
		switch v.Type {
		case bson.TypeInt32, bson.TypeInt64, bson.TypeDouble:
			text = fmt.Sprint(Number(v))
		case bson.TypeString:
			text = fmt.Sprintf("%q", v.StringValue())
		}
		parts = append(parts, e.Key()+": "+text)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func extJSON(d bson.Raw) string {
	b, err := bson.MarshalExtJSON(d, false, false)
	if err != nil {
		return d.String()
	}
	return string(b)
}

// MissingIndexes are the indexes of col that the collection does not hold
// (matched by key pattern), as "{org: 1} (org_1)".
func (cl *Client) MissingIndexes(ctx context.Context, col *workload.Collection) ([]string, error) {
	held, err := cl.ListIndexes(ctx, col.Database, col.Name)
	if err != nil {
		return nil, err
	}
	has := map[string]bool{}
	for _, ix := range held {
		has[ix.Keys] = true
	}
	var out []string
	for _, ix := range col.Indexes {
		if k := KeyText(bson.Raw(ix.Keys)); !has[k] {
			out = append(out, k+" ("+ix.Name+")")
		}
	}
	return out, nil
}

// missingNotice says which of the workload's indexes an existing
// collection lacks, which setup leaves as they are, and what it means;
// "" when none is missing.
func (cl *Client) missingNotice(ctx context.Context, col *workload.Collection) (string, error) {
	missing, err := cl.MissingIndexes(ctx, col)
	if err != nil || len(missing) == 0 {
		return "", err
	}
	return fmt.Sprintf("%s existed before this run, and its indexes are left as they are: it lacks the workload's index %s, so the operations that would use it run without it (a scan where the workload expects an index); --create-indexes builds them",
		col.Namespace(), strings.Join(missing, ", ")), nil
}
