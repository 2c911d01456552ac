package recording

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/mongoload/mongoload/internal/trace"
)

// Why a request is not an entry.
const (
	WhyCompressed = "compressed messages (OP_COMPRESSED: this reader does not decompress them)"
	WhyLegacy     = "legacy wire messages (OP_QUERY and older: no command of a current driver)"
	WhyUndecoded  = "messages whose OP_MSG did not decode"
)

// entryOf makes the trace entry of a request: its command, with its
// document sequences (an insert's documents, an update's statements) put
// back in the body as the arrays they stand for, so that the entry holds
// what the application sent.
func entryOf(p packet, at time.Time) (trace.Entry, string) {
	switch p.opcode() {
	case opMsg:
	case opCompressed:
		return trace.Entry{}, WhyCompressed
	default:
		return trace.Entry{}, WhyLegacy
	}
	m, err := parseOpMsg(p.msg)
	if err != nil {
		return trace.Entry{}, WhyUndecoded
	}
	cmd := bson.Raw(m.body)
	if len(m.seqs) > 0 {
		cmd = withSequences(m.body, m.seqs)
	}
	els, err := cmd.Elements()
	if err != nil || len(els) == 0 {
		return trace.Entry{}, WhyUndecoded
	}
	name := els[0].Key()
	db, _ := cmd.Lookup("$db").StringValueOK()
	coll, ok := els[0].Value().StringValueOK()
	if !ok {
		coll = "$cmd"
	}
	if name == "getMore" {
		coll, _ = cmd.Lookup("collection").StringValueOK()
	}
	e := trace.Entry{Start: at, NS: db + "." + coll, Op: opOf(name), Cmd: cmd, Conn: "conn" + strconv.FormatUint(p.conn, 10)}
	e.Shape = shapeOf(name, coll, cmd)
	return e, ""
}

// withSequences is body with each document sequence appended as an array.
func withSequences(body []byte, seqs []docSeq) bson.Raw {
	idx, out := bsoncore.AppendDocumentStart(nil)
	out = append(out, body[4:len(body)-1]...) // body's elements
	for _, s := range seqs {
		aidx, a := bsoncore.AppendArrayElementStart(out, s.id)
		for i, d := range s.docs {
			a = bsoncore.AppendDocumentElement(a, strconv.Itoa(i), d)
		}
		out, _ = bsoncore.AppendArrayEnd(a, aidx)
	}
	out, _ = bsoncore.AppendDocumentEnd(out, idx)
	return out
}

// opOf is the profiler's op for a command (what replay reads entries by).
func opOf(name string) string {
	switch name {
	case "find":
		return "query"
	case "insert", "update":
		return name
	case "delete":
		return "remove"
	case "getMore":
		return "getmore"
	}
	return "command"
}

// shapeOf groups requests as replay measures them: the command, its
// collection, whether it writes many, and its filter's fields ("find
// people {_id}", "update people multi {org}").
func shapeOf(name, coll string, cmd bson.Raw) string {
	s := name + " " + coll
	var filter bson.Raw
	switch name {
	case "insert":
		if arr, ok := cmd.Lookup("documents").ArrayOK(); ok {
			if docs, _ := arr.Values(); len(docs) > 1 {
				s += " batch"
			}
		}
	case "update", "delete":
		list := "updates"
		if name == "delete" {
			list = "deletes"
		}
		st, _ := cmd.Lookup(list, "0").DocumentOK()
		filter, _ = st.Lookup("q").DocumentOK()
		multi, _ := st.Lookup("multi").BooleanOK()
		if limit, ok := st.Lookup("limit").AsInt64OK(); name == "delete" && ok && limit == 0 {
			multi = true
		}
		if multi {
			s += " multi"
		}
	case "find", "findAndModify":
		filter, _ = cmd.Lookup("filter").DocumentOK()
		if name == "findAndModify" {
			filter, _ = cmd.Lookup("query").DocumentOK()
		}
	case "count", "distinct":
		filter, _ = cmd.Lookup("query").DocumentOK()
	case "aggregate":
		filter, _ = cmd.Lookup("pipeline", "0", "$match").DocumentOK()
	}
	if filter != nil {
		var keys []string
		els, _ := filter.Elements()
		for _, e := range els {
			keys = append(keys, e.Key())
		}
		slices.Sort(keys)
		s += " {" + strings.Join(keys, ",") + "}"
	}
	return s
}
