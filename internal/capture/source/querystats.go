package source

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// queryStatsPipeline reads every query shape with its statistics. The
// literals of a shape are MongoDB's placeholders ("?number", "?string").
var queryStatsPipeline = bson.A{bson.D{{Key: "$queryStats", Value: bson.D{}}}}

// queryStats takes two snapshots of $queryStats, --duration apart (one
// without a duration), and makes each shape an operation executed as
// often as its execCount grew between them.
func QueryStats(ctx context.Context, srv Server, o Options, emit func(Op) bool) (*Source, error) {
	admin, ok := srv.(interface {
		AdminAggregateEach(ctx context.Context, pipeline any, each func(bson.Raw) error) error
	})
	if !ok {
		return nil, fmt.Errorf("$queryStats needs a server connection")
	}
	snap := func() ([]bson.Raw, error) {
		var out []bson.Raw
		err := admin.AdminAggregateEach(ctx, queryStatsPipeline, func(d bson.Raw) error { out = append(out, append(bson.Raw(nil), d...)); return nil })
		return out, err
	}
	first, err := snap()
	if err != nil {
		return nil, fmt.Errorf("this server has no $queryStats (MongoDB 8.0 and later, and Atlas, have it): capture from the profiler (--database without --query-stats) or from the log (--log); the server said: %s", FirstLine(err))
	}
	start := o.Now()
	var second []bson.Raw
	if o.Duration > 0 {
		o.Progress(fmt.Sprintf("second $queryStats snapshot in %s", o.Duration))
		select {
		case <-ctx.Done():
		case <-time.After(o.Duration):
		}
		if second, err = snap(); err != nil {
			return nil, fmt.Errorf("$queryStats, second snapshot: %w", err)
		}
	}
	src := QueryStatsSource(first, second, o.Now().Sub(start), o.Databases, emit)
	// $queryStats records at most internalQueryStatsRateLimit queries a
	// second (100 by default; -1 or 0: all): beyond it, counts are a sample.
	if p, err := srv.Command(ctx, "admin", bson.D{{Key: "getParameter", Value: 1}, {Key: "internalQueryStatsRateLimit", Value: 1}}); err == nil {
		if limit := mongodb.Number(p.Lookup("internalQueryStatsRateLimit")); limit > 0 {
			src.Why += fmt.Sprintf("; internalQueryStatsRateLimit %g: $queryStats recorded at most %g queries a second, so above that the counts are a sample and the mix, not the rate, is the truth", limit, limit)
			if src.Complete && rateOver(src) > limit {
				src.Complete = false
			}
		}
	}
	return src, nil
}

// rateOver is the executions a second of a source's window.
func rateOver(s *Source) float64 {
	if d := s.To.Sub(s.From).Seconds(); d > 0 {
		return s.Executions / d
	}
	return 0
}

// QueryStatsSource turns $queryStats snapshots into operations: with a
// second snapshot, each shape counts the executions between the two (a
// rate over window); with one, its executions since it was first seen (a
// mix only).
func QueryStatsSource(first, second []bson.Raw, window time.Duration, dbs []string, emit func(Op) bool) *Source {
	before, returned := map[string]float64{}, map[string]float64{}
	snapshot := first
	if second != nil {
		for _, d := range first {
			h, _ := d.Lookup("keyHash").StringValueOK()
			before[h] = mongodb.Number(d.Lookup("metrics", "execCount"))
			returned[h] = mongodb.Number(d.Lookup("metrics", "docsReturned", "sum"))
		}
		snapshot = second
	}
	p := &Profiled{Databases: dbs, Emit: emit}
	for _, d := range snapshot {
		p.Tally.Read++
		shape := doc(d.Lookup("key", "queryShape"))
		db, _ := shape.Lookup("cmdNs", "db").StringValueOK()
		coll, _ := shape.Lookup("cmdNs", "coll").StringValueOK()
		if why := p.outside(db + "." + coll); why != "" {
			p.Tally.skip(why)
			continue
		}
		h, _ := d.Lookup("keyHash").StringValueOK()
		execs := mongodb.Number(d.Lookup("metrics", "execCount")) - before[h]
		if execs <= 0 {
			p.Tally.skip("shapes not run during the window")
			continue
		}
		cmd := bson.D{}
		name, _ := shape.Lookup("command").StringValueOK()
		els, _ := shape.Elements()
		cmd = append(cmd, bson.E{Key: name, Value: coll})
		for _, e := range els {
			if k := e.Key(); k != "command" && k != "cmdNs" {
				cmd = append(cmd, bson.E{Key: k, Value: e.Value()})
			}
		}
		raw, _ := bson.Marshal(cmd)
		e := entry{opType: "command", ns: db + "." + coll, cmd: raw}
		o, ok := e.read(&p.Tally)
		if !ok {
			continue
		}
		o.Count, o.Aggregate = execs, true
		o.Returned = int64(mongodb.Number(d.Lookup("metrics", "docsReturned", "sum")) - returned[h])
		if t, ok := d.Lookup("metrics", "latestSeenTimestamp").DateTimeOK(); ok {
			o.TS = bson.DateTime(t).Time().UTC()
		}
		p.Tally.Used++
		p.Keep(o)
	}
	src := p.Source("$queryStats", "")
	src.Arrivals = nil // a shape's executions come at once, at its last time seen: no curve
	if second != nil {
		src.From, src.Complete = src.To.Add(-window), true
		src.Why = fmt.Sprintf("$queryStats records every query (reads only: finds, aggregations, distinct and count; not writes): executions counted between two snapshots %s apart", window.Round(time.Second))
	} else {
		src.Why = "one $queryStats snapshot: executions since each shape was first seen give the mix, not a rate (give --duration for two snapshots)"
	}
	return src
}

// QueryStatsPlaceholder reports whether s is one of $queryStats' literal
// placeholders, such as "?number" or "?array<?string>".
func QueryStatsPlaceholder(s string) bool {
	return strings.HasPrefix(s, "?") && len(s) > 1 && s[1] >= 'a' && s[1] <= 'z'
}
