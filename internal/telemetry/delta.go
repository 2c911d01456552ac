package telemetry

import (
	"math"

	"github.com/mongoload/mongoload/internal/results"
)

// Delta returns the sample for the interval from prev to cur: counters as
// the change between them, gauges as cur's values. A counter either reply
// lacks is absent. If the server restarted in between (its uptime went
// back, or a counter decreased), the counters it reset are absent for this
// interval rather than negative; restarted reports it.
func Delta(prev, cur *Status) (s results.ServerSample, restarted bool) {
	s.At = cur.At
	s.Dt = round3(cur.At.Sub(prev.At).Seconds())
	restarted = restartedBetween(prev, cur)
	d := func(name string) *int64 {
		a, okA := prev.values[name]
		b, okB := cur.values[name]
		if !okA || !okB || restarted {
			return nil
		}
		v := b - a
		return &v
	}
	g := func(name string) *int64 {
		if v, ok := cur.values[name]; ok {
			return &v
		}
		return nil
	}
	s.Opcounters = nilIfEmpty(&results.Opcounters{
		Insert: d("opcounters.insert"), Query: d("opcounters.query"), Update: d("opcounters.update"),
		Delete: d("opcounters.delete"), Getmore: d("opcounters.getmore"), Command: d("opcounters.command"),
	})
	s.OpLatencies = nilIfEmpty(&results.OpLatencies{
		Reads: class(d, "reads"), Writes: class(d, "writes"), Commands: class(d, "commands"), Transactions: class(d, "transactions"),
	})
	s.Connections = nilIfEmpty(&results.Connections{Current: g("connections.current"), Available: g("connections.available")})
	s.Cache = nilIfEmpty(&results.Cache{
		BytesInUse: g("cache.bytesInUse"), DirtyBytes: g("cache.dirtyBytes"), MaxBytes: g("cache.maxBytes"),
		PagesReadIntoCache: d("cache.pagesReadIntoCache"),
	})
	s.Tickets = nilIfEmpty(&results.Tickets{ReadAvailable: g("tickets.readAvailable"), WriteAvailable: g("tickets.writeAvailable")})
	s.Network = nilIfEmpty(&results.Network{BytesIn: d("network.bytesIn"), BytesOut: d("network.bytesOut")})
	s.Transactions = nilIfEmpty(&results.Transactions{Committed: d("transactions.committed"), Aborted: d("transactions.aborted")})
	s.CPU = nilIfEmpty(&results.CPU{UserSeconds: seconds(d("cpu.userSeconds")), SystemSeconds: seconds(d("cpu.systemSeconds"))})
	return s, restarted
}

// restartedBetween reports a server restart: its uptime went back, or a
// counter did.
func restartedBetween(prev, cur *Status) bool {
	if prev.Uptime > 0 && cur.Uptime > 0 && cur.Uptime < prev.Uptime {
		return true
	}
	for _, f := range fields {
		a, okA := prev.values[f.name]
		b, okB := cur.values[f.name]
		if f.kind == counter && okA && okB && b < a {
			return true
		}
	}
	return false
}

// class is one opLatencies class: present when both its counters are.
func class(d func(string) *int64, name string) *results.LatencyClass {
	ops, lat := d("opLatencies."+name+".ops"), d("opLatencies."+name+".latency")
	if ops == nil || lat == nil {
		return nil
	}
	c := &results.LatencyClass{Ops: *ops}
	if *ops > 0 {
		avg := round3(float64(*lat) / float64(*ops))
		c.AvgMicros = &avg
	}
	return c
}

// seconds converts a microsecond delta.
func seconds(us *int64) *float64 {
	if us == nil {
		return nil
	}
	s := float64(*us) / 1e6
	return &s
}

// nilIfEmpty returns nil for a group none of whose fields the server
// reported, so the group is omitted rather than shown empty.
func nilIfEmpty[T comparable](v *T) *T {
	var zero T
	if *v == zero {
		return nil
	}
	return v
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }
