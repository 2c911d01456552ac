// Package replay turns a captured trace (internal/trace) into a run:
// a plan with one operation per captured shape, and a feed that hands the
// engine's open loop each captured command at its captured time divided
// by the speed (engine.Options.Feed). The run itself is run's: the same
// measurement, report, telemetry and results file (docs/replay.md).
package replay

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/mongoload/mongoload/internal/dbcommand"
)

// sessionFields are what a driver adds to a command for its session, its
// cluster and its routing: the replay's own client adds its own, so the
// source's are left out (a source's lsid on the target would be a stranger's
// session).
var sessionFields = map[string]bool{
	"lsid": true, "$db": true, "$clusterTime": true, "txnNumber": true, "autocommit": true,
	"startTransaction": true, "$readPreference": true, "$audit": true, "$client": true,
	"$configServerState": true, "$gleStats": true, "$topologyTime": true, "$configTime": true,
	"mayBypassWriteBlocking": true, "$oplogQueryData": true, "$replData": true, "shardVersion": true,
	"databaseVersion": true, "clientOperationKey": true,
}

// Why an entry is not sent.
const (
	WhyGetMore   = "getMores (each replayed find or aggregate reads its own cursor to its end)"
	WhyNoDocs    = "inserts recorded without their documents (sent as a document sequence, which the source does not record)"
	WhyTruncated = "commands the source truncated ($truncated)"
	WhyUnread    = "commands that did not read"
)

// command makes the command to send for one entry and its class under
// the ownership rule (internal/dbcommand), or says why there is none: the
// source's command less its session fields, and an update or a delete
// statement (the profiler records statements) wrapped in its command, less
// the same fields: a statement that carries them (a trace written by
// another tool, a driver's $db) is refused whole by the server, "BSON
// field 'lsid' is an unknown field".
// What the policy does not send is said by why, naming the command.
func command(op, ns string, cmd bson.Raw, pol dbcommand.Policy) ([]byte, dbcommand.Class, string) {
	if op == "getmore" {
		return nil, dbcommand.Class{}, WhyGetMore
	}
	els, err := cmd.Elements()
	if err != nil || len(els) == 0 {
		return nil, dbcommand.Class{}, WhyUnread
	}
	if cmd.Lookup("$truncated").Type != 0 {
		return nil, dbcommand.Class{}, WhyTruncated
	}
	_, coll, _ := strings.Cut(ns, ".")
	var out []byte
	switch first := els[0].Key(); {
	case op == "update" && first != "update":
		out = wrap("update", coll, "updates", strip(els))
	case op == "remove" && first != "delete":
		out = wrap("delete", coll, "deletes", strip(els))
	case first == "insert" && cmd.Lookup("documents").Type == 0:
		return nil, dbcommand.Class{}, WhyNoDocs
	default:
		out = strip(els)
	}
	// Classified as sent, on the database it was sent to ($db, which the
	// source's command may carry, wins over the entry's).
	cls := dbcommand.Classify(dbOf(ns), cmd)
	if op == "update" || op == "remove" {
		cls = dbcommand.Classify(dbOf(ns), out)
	}
	if why := pol.Skip(cls); why != "" {
		return nil, cls, why
	}
	return out, cls, ""
}

// strip is the command less the source's session fields and clock.
func strip(els []bson.RawElement) []byte {
	idx, out := bsoncore.AppendDocumentStart(nil)
	for _, e := range els {
		k := e.Key()
		if sessionFields[k] {
			continue
		}
		if k == "readConcern" {
			// afterClusterTime and atClusterTime are the source's clock.
			rc, _ := e.Value().DocumentOK()
			lvl, ok := rc.Lookup("level").StringValueOK()
			if !ok {
				continue
			}
			out = bsoncore.AppendDocumentElement(out, k, bsoncore.NewDocumentBuilder().AppendString("level", lvl).Build())
			continue
		}
		out = append(out, e...)
	}
	out, _ = bsoncore.AppendDocumentEnd(out, idx)
	return out
}

// wrap makes {name: coll, list: [statement]}.
func wrap(name, coll, list string, st bson.Raw) []byte {
	idx, out := bsoncore.AppendDocumentStart(nil)
	out = bsoncore.AppendStringElement(out, name, coll)
	aidx, out := bsoncore.AppendArrayElementStart(out, list)
	out = bsoncore.AppendDocumentElement(out, "0", st)
	out, _ = bsoncore.AppendArrayEnd(out, aidx)
	out, _ = bsoncore.AppendDocumentEnd(out, idx)
	return out
}

// opType is the workload type a captured kind counts as (the server
// cross-check's rules, internal/telemetry).
func opType(shape string) string {
	kind, _, _ := strings.Cut(shape, " ")
	has := func(s string) bool { return strings.Contains(shape, " "+s) }
	switch kind {
	case "insert":
		if has("batch") {
			return "insertMany"
		}
		return "insertOne"
	case "update":
		if has("multi") {
			return "updateMany"
		}
		return "updateOne"
	case "delete":
		if has("multi") {
			return "deleteMany"
		}
		return "deleteOne"
	case "count":
		return "countDocuments"
	case "findAndModify":
		return "findOneAndUpdate"
	}
	return kind
}
