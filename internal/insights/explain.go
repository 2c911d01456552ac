package insights

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// Commander runs a database command and returns the reply as it came;
// internal/mongodb's Client implements it.
type Commander interface {
	Command(ctx context.Context, db string, cmd bson.D) (bson.Raw, error)
}

// ExplainTimeout bounds one explain: a collection scan of a big collection
// can take a while, and the run's report waits for it.
const ExplainTimeout = 30 * time.Second

// Explain runs explain (executionStats) of each sample once, in order, and
// returns what each winning plan says. A refused or failed explain gives
// an Explain with only its Error set, and the next sample is still tried.
func Explain(ctx context.Context, c Commander, samples []Sample) []results.Explain {
	out := make([]results.Explain, len(samples))
	for i, s := range samples {
		if ctx.Err() != nil {
			out[i] = results.Explain{Error: "not explained: " + ctx.Err().Error()}
			continue
		}
		out[i] = explainOne(ctx, c, s)
	}
	return out
}

func explainOne(ctx context.Context, c Commander, s Sample) results.Explain {
	if why := notExplained(s.Kind); why != "" {
		return results.Explain{Error: results.NotExplained + why}
	}
	db, coll, _ := strings.Cut(s.Namespace, ".")
	inner, as := ExplainCommand(s, coll)
	return explainOn(ctx, c, db, inner, as)
}

// explainOn explains inner on db with executionStats, within
// ExplainTimeout; as names the command explained.
func explainOn(ctx context.Context, c Commander, db string, inner bson.D, as string) results.Explain {
	ctx, cancel := context.WithTimeout(ctx, ExplainTimeout)
	defer cancel()
	raw, err := c.Command(ctx, db, bson.D{{Key: "explain", Value: inner}, {Key: "verbosity", Value: "executionStats"}})
	if err != nil {
		return results.Explain{As: as, Error: err.Error()}
	}
	e, err := ParseExplain(raw)
	e.As = as
	if err != nil {
		e.Error = err.Error()
	}
	return e
}

// notExplained says why a kind has no plan to show; "" when it has one.
func notExplained(k workload.Kind) string {
	switch k {
	case workload.InsertOne, workload.InsertMany:
		return "an insert reads nothing, so it has no query plan"
	case workload.Transaction:
		return "a transaction is several commands, with no one plan (its steps' filters have theirs)"
	case workload.Replay:
		return "a replayed command is sent as captured, and explained only as a shape of a workload"
	}
	return ""
}

// ExplainCommand is the command whose plan stands for the sample's: the
// command mongoload sends for it, in the form explain takes, which plans
// it without writing anything. A find (findOne: limit 1) with the
// sample's filter, sort and limit; an aggregate with its pipeline (an
// array of stages); countDocuments as the aggregate the driver sends
// ($match, $limit, $group); an update (updateOne, updateMany,
// replaceOne), a delete, a findAndModify with their statement; a
// read-modify-write as its read.
func ExplainCommand(s Sample, coll string) (bson.D, string) {
	switch s.Kind {
	case workload.Aggregate:
		return bson.D{{Key: "aggregate", Value: coll}, {Key: "pipeline", Value: stages(s.Filter)}, {Key: "cursor", Value: bson.D{}}}, "aggregate"
	case workload.CountDocuments:
		pipeline := bson.A{bson.D{{Key: "$match", Value: s.Filter}}}
		if s.Limit > 0 {
			pipeline = append(pipeline, bson.D{{Key: "$limit", Value: s.Limit}})
		}
		pipeline = append(pipeline, bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: 1}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}}}})
		return bson.D{{Key: "aggregate", Value: coll}, {Key: "pipeline", Value: pipeline}, {Key: "cursor", Value: bson.D{}}}, "aggregate"
	case workload.UpdateOne, workload.UpdateMany, workload.ReplaceOne:
		st := bson.D{{Key: "q", Value: s.Filter}, {Key: "u", Value: orEmpty(s.Update)}, {Key: "multi", Value: s.Kind == workload.UpdateMany}, {Key: "upsert", Value: s.Upsert}}
		return bson.D{{Key: "update", Value: coll}, {Key: "updates", Value: bson.A{st}}}, "update"
	case workload.DeleteOne, workload.DeleteMany:
		limit := int32(1)
		if s.Kind == workload.DeleteMany {
			limit = 0
		}
		return bson.D{{Key: "delete", Value: coll}, {Key: "deletes", Value: bson.A{bson.D{{Key: "q", Value: s.Filter}, {Key: "limit", Value: limit}}}}}, "delete"
	case workload.FindOneAndUpdate:
		cmd := bson.D{{Key: "findAndModify", Value: coll}, {Key: "query", Value: s.Filter}}
		if len(s.Sort) > 0 {
			cmd = append(cmd, bson.E{Key: "sort", Value: s.Sort})
		}
		cmd = append(cmd, bson.E{Key: "update", Value: orEmpty(s.Update)}, bson.E{Key: "new", Value: true}, bson.E{Key: "upsert", Value: s.Upsert})
		return cmd, "findAndModify"
	}
	cmd := bson.D{{Key: "find", Value: coll}, {Key: "filter", Value: s.Filter}}
	if len(s.Sort) > 0 {
		cmd = append(cmd, bson.E{Key: "sort", Value: s.Sort})
	}
	switch {
	case s.Kind == workload.FindOne || s.Kind == workload.ReadModifyWrite:
		cmd = append(cmd, bson.E{Key: "limit", Value: int64(1)})
	case s.Limit > 0 && s.Kind == workload.Find:
		cmd = append(cmd, bson.E{Key: "limit", Value: s.Limit})
	}
	return cmd, "find"
}

// stages is a pipeline's stages, each its own document: the server takes
// "an array of objects", which a bson.RawArray in a bson.D is not sent as.
func stages(pipeline bson.Raw) bson.A {
	vals, _ := bson.RawArray(pipeline).Values()
	out := make(bson.A, 0, len(vals))
	for _, v := range vals {
		if d, ok := v.DocumentOK(); ok {
			out = append(out, d)
		}
	}
	return out
}

// orEmpty is an update's document, {} for none (a sample without one
// still gets a plan: the filter picks it, not the update).
func orEmpty(d bson.Raw) bson.Raw {
	if len(d) == 0 {
		return bson.Raw{5, 0, 0, 0, 0}
	}
	return d
}

// ParseExplain reads an explain reply of executionStats verbosity, from a
// mongod (classic or slot-based engine), an aggregate (whose plan may sit
// in its first stage's $cursor) or a mongos (one plan per shard: a scan on
// any shard flags the shape).
func ParseExplain(raw bson.Raw) (results.Explain, error) {
	var e results.Explain
	if err := raw.Validate(); err != nil {
		return e, fmt.Errorf("explain reply: %w", err)
	}
	planner, stats := raw.Lookup("queryPlanner"), raw.Lookup("executionStats")
	if _, ok := planner.DocumentOK(); !ok {
		if stages, ok := raw.Lookup("stages").ArrayOK(); ok {
			if first, err := stages.IndexErr(0); err == nil {
				if fd, ok := first.DocumentOK(); ok {
					if cur, ok := fd.Lookup("$cursor").DocumentOK(); ok {
						planner, stats = cur.Lookup("queryPlanner"), cur.Lookup("executionStats")
					}
				}
			}
		}
	}
	pd, ok := planner.DocumentOK()
	if !ok {
		return e, fmt.Errorf("the explain reply has no queryPlanner")
	}
	var plans []bson.Raw
	win, ok := pd.Lookup("winningPlan").DocumentOK()
	if !ok {
		return e, fmt.Errorf("the explain reply has no winning plan")
	}
	if shards, ok := win.Lookup("shards").ArrayOK(); ok {
		vals, _ := shards.Values()
		for _, v := range vals {
			if d, ok := v.DocumentOK(); ok {
				if wp, ok := d.Lookup("winningPlan").DocumentOK(); ok {
					plans = append(plans, planRoot(wp))
				}
			}
		}
	} else {
		plans = append(plans, planRoot(win))
	}
	var chains, scans, indexes, summary []string
	for _, p := range plans {
		var leaves []bson.Raw
		chains = append(chains, chain(p, &leaves))
		for _, l := range leaves {
			st, _ := l.Lookup("stage").StringValueOK()
			addOnce(&scans, st)
			addOnce(&summary, leafSummary(st, l))
			if st == "COLLSCAN" {
				e.CollScan = true
			}
			if name, ok := l.Lookup("indexName").StringValueOK(); ok {
				addOnce(&indexes, name)
			}
		}
	}
	e.Plan = strings.Join(chains, " | ")
	e.Summary = strings.Join(summary, ", ")
	e.Scan = strings.Join(scans, ", ")
	e.Index = strings.Join(indexes, ", ")
	if sd, ok := stats.DocumentOK(); ok {
		e.Returned = intOf(sd.Lookup("nReturned"))
		e.KeysExamined = intOf(sd.Lookup("totalKeysExamined"))
		e.DocsExamined = intOf(sd.Lookup("totalDocsExamined"))
		e.ExecutionMs = intOf(sd.Lookup("executionTimeMillis"))
		if e.Returned > 0 {
			k, d := perReturned(e.KeysExamined, e.Returned), perReturned(e.DocsExamined, e.Returned)
			e.KeysPerReturned, e.DocsPerReturned = &k, &d
		}
	}
	return e, nil
}

// leafSummary writes a plan's leaf as planSummary does: its stage, and
// the key pattern of the index it reads ("IXSCAN { org: 1, _id: -1 }").
func leafSummary(stage string, leaf bson.Raw) string {
	kp, ok := leaf.Lookup("keyPattern").DocumentOK()
	if !ok {
		return stage
	}
	elems, err := kp.Elements()
	if err != nil || len(elems) == 0 {
		return stage
	}
	parts := make([]string, len(elems))
	for i, el := range elems {
		parts[i] = el.Key() + ": " + keyValue(el.Value())
	}
	return stage + " { " + strings.Join(parts, ", ") + " }"
}

// keyValue writes one key pattern value: 1, -1, "text", "2dsphere".
func keyValue(v bson.RawValue) string {
	if s, ok := v.StringValueOK(); ok {
		return `"` + s + `"`
	}
	if f, ok := v.DoubleOK(); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	if n, ok := v.AsInt64OK(); ok {
		return strconv.FormatInt(n, 10)
	}
	return v.String()
}

// planRoot unwraps the slot-based engine's {queryPlan: ..., slotBasedPlan: ...}.
func planRoot(p bson.Raw) bson.Raw {
	if q, ok := p.Lookup("queryPlan").DocumentOK(); ok {
		return q
	}
	return p
}

// chain renders a plan's stages from the top, such as "FETCH > IXSCAN" or
// "SUBPLAN > FETCH > OR(IXSCAN, IXSCAN)", and collects its leaves.
func chain(p bson.Raw, leaves *[]bson.Raw) string {
	st, _ := p.Lookup("stage").StringValueOK()
	if in, ok := p.Lookup("inputStage").DocumentOK(); ok {
		return st + " > " + chain(in, leaves)
	}
	if arr, ok := p.Lookup("inputStages").ArrayOK(); ok {
		vals, _ := arr.Values()
		parts := make([]string, 0, len(vals))
		for _, v := range vals {
			if d, ok := v.DocumentOK(); ok {
				parts = append(parts, chain(d, leaves))
			}
		}
		return st + "(" + strings.Join(parts, ", ") + ")"
	}
	*leaves = append(*leaves, p)
	return st
}

func addOnce(list *[]string, s string) {
	if s == "" {
		return
	}
	for _, x := range *list {
		if x == s {
			return
		}
	}
	*list = append(*list, s)
}

func intOf(v bson.RawValue) int64 {
	n, _ := v.AsInt64OK()
	return n
}

func perReturned(n, returned int64) float64 {
	return math.Round(float64(n)/float64(returned)*100) / 100
}
