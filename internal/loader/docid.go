package loader

import (
	"bytes"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/generate"
)

// checkID decides whether documents need an _id derived from the key, and
// warns when the template's own _id is not a function of the key.
func (p *partRun) checkID() {
	key := p.part.From
	gen := func(stream uint64) []byte {
		st := generate.NewState(stream, stream)
		st.BeginDocument(p.col.Keys, key, p.seed, p.rec.Epoch)
		return p.col.Doc.Append(nil, st)
	}
	a, b := gen(1), gen(2)
	ida, errA := bson.Raw(a).LookupErr("_id")
	idb, errB := bson.Raw(b).LookupErr("_id")
	switch {
	case errA != nil || errB != nil:
		p.addID = true
	case ida.Type != idb.Type || !bytes.Equal(ida.Value, idb.Value):
		p.o.OnNotice(fmt.Sprintf("%s: the template's _id is not the same at each making of a key: an interrupted load of it cannot be resumed without duplicates (use {$gen: objectId} or {$gen: key})", p.col.Namespace()))
	}
}

func firstLine(err error) string {
	s := err.Error()
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
