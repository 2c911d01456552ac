// Command airline is the floor for mongoload's default workload that make
// bench measures mongoload against: the same ten operations in the same
// proportions, on airline.flights, with the same filters, projections,
// sorts, limits, batch size and documents of the same shape and size, and
// nothing a client need not do. Every filter, update, pipeline and document
// is raw BSON appended into buffers the worker reuses (no fmt, no maps, no
// bson.D); strings come from fixed lists; results are drained, not decoded.
// Same pool (the driver's default) and as many goroutines as mongoload's
// workers. With -client wire the same operations go out with no driver,
// one OP_MSG written and one read each (bench/floor/client): the wire floor.
//
// It prints "ops=N ops/s=R errors=E" for the measured duration.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/mongoload/mongoload/bench/floor/client"
	"github.com/mongoload/mongoload/bench/floor/loop"
)

var (
	uri      = flag.String("uri", "mongodb://127.0.0.1:27017", "server")
	workers  = flag.Int("concurrency", 8, "workers (goroutines)")
	duration = flag.Duration("duration", 15*time.Second, "how long")
	keys     = flag.Int64("keys", 10000, "existing flight_id keys [0, keys): the seed count")
	kind     = flag.String("client", "driver", "driver (the official driver, its cheapest use) or wire (one OP_MSG per operation, no driver: the physical floor)")
)

// The mix of internal/builtin/default.yaml, in its order.
var weights = [10]int{24, 10, 12, 8, 15, 6, 5, 5, 10, 5}

var (
	planes    = []string{"Boeing 737", "Boeing 777", "Boeing 787", "Airbus A320", "Airbus A321", "Airbus A350", "Embraer E190"}
	cities    = []string{"Greensboro", "Chicago", "Lisbon", "Osaka", "Denver", "Lyon", "Accra", "Perth", "Toronto", "Madrid"}
	first     = []string{"Janet", "Keagan", "Ana", "Tom", "Li", "Sara", "Omar", "Priya"}
	last      = []string{"Miller", "Reynolds", "Silva", "Baker", "Wei", "Cohen", "Haddad", "Nair"}
	amenities = []string{"WiFi", "Power outlets", "Extra legroom", "Priority boarding", "Hot meals", "Entertainment"}
)

// Fixed parts, built once.
var (
	summaryProj = doc(func(d []byte) []byte {
		d = bsoncore.AppendInt32Element(d, "_id", 0)
		for _, f := range []string{"flight_code", "origin", "destination", "gate", "flight_date", "seats_available"} {
			d = bsoncore.AppendInt32Element(d, f, 1)
		}
		return d
	})
	planeProj = doc(func(d []byte) []byte {
		for _, f := range []string{"flight_id", "flight_code", "equipment"} {
			d = bsoncore.AppendInt32Element(d, f, 1)
		}
		return d
	})
	byFlight = doc(func(d []byte) []byte { return bsoncore.AppendInt32Element(d, "flight_id", 1) })
	bookSeat = doc(func(d []byte) []byte {
		return appendDoc(d, "$inc", func(d []byte) []byte { return bsoncore.AppendInt32Element(d, "seats_available", -1) })
	})
	summaryOpts = client.NewFind(summaryProj, nil, 0)
	seatsOpts   = client.NewFind(nil, byFlight, 10)
	planeOpts   = client.NewFind(planeProj, nil, 20)
	nextKey     atomic.Int64
)

func main() {
	flag.Parse()
	clients, err := client.Open(*kind, *uri, "airline", "flights")
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	defer clients.Close()
	nextKey.Store(*keys + 1_000_000_000) // inserts take fresh keys
	ops, errs := loop.Run(*workers, *duration, func(w int) func() error {
		c, err := clients.New()
		if err != nil {
			return func() error { return err }
		}
		// Fresh seeds each run, as mongoload draws: a floor replaying its last
		// run would write values already there, work the server skips.
		wk := &worker{r: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), c: c}
		return func() error {
			if err := wk.one(); !client.IsNoDocuments(err) {
				return err
			}
			return nil
		}
	})
	fmt.Println(loop.Report(ops, errs, *duration))
}

type worker struct {
	r      *rand.Rand
	c      client.Client
	filter []byte
	update []byte
	docs   [10][]byte
}

func (w *worker) pick() int {
	n := w.r.IntN(100)
	for i, wt := range weights {
		if n < wt {
			return i
		}
		n -= wt
	}
	return 0
}

func (w *worker) one() error {
	r, c := w.r, w.c
	key := r.Int64N(*keys)
	f := w.filter[:0]
	switch w.pick() {
	case 0: // find_flight
		w.filter = doc1(f, func(d []byte) []byte { return bsoncore.AppendInt64Element(d, "flight_id", key) })
		return c.FindOne(w.filter)
	case 1: // flight_summary
		w.filter = doc1(f, func(d []byte) []byte { return bsoncore.AppendInt64Element(d, "flight_id", key) })
		return c.Find(w.filter, summaryOpts)
	case 2: // flights_with_seats
		w.filter = doc1(f, func(d []byte) []byte { return bsoncore.AppendInt64Element(d, "seats_available", r.Int64N(301)) })
		return c.Find(w.filter, seatsOpts)
	case 3: // flights_by_plane
		w.filter = doc1(f, func(d []byte) []byte {
			return bsoncore.AppendStringElement(d, "equipment.plane_type", planes[r.IntN(len(planes))])
		})
		return c.Find(w.filter, planeOpts)
	case 4: // book_seat
		w.filter = doc1(f, func(d []byte) []byte {
			d = bsoncore.AppendInt64Element(d, "flight_id", key)
			return appendDoc(d, "seats_available", func(d []byte) []byte { return bsoncore.AppendInt32Element(d, "$gt", 0) })
		})
		return c.UpdateOne(w.filter, bookSeat)
	case 5: // change_gate_and_agent
		w.filter = doc1(f, func(d []byte) []byte { return bsoncore.AppendInt64Element(d, "flight_id", key) })
		w.update = doc1(w.update[:0], func(d []byte) []byte {
			return appendDoc(d, "$set", func(d []byte) []byte {
				d = appendPattern(d, r, "gate", "?##")
				d = bsoncore.AppendStringElement(d, "agent_first_name", first[r.IntN(len(first))])
				return bsoncore.AppendStringElement(d, "agent_last_name", last[r.IntN(len(last))])
			})
		})
		return c.UpdateOne(w.filter, w.update)
	case 6: // add_flight
		w.docs[0] = w.flight(w.docs[0][:0])
		return c.Insert(w.docs[0])
	case 7: // add_flights_batch
		for i := range w.docs {
			w.docs[i] = w.flight(w.docs[i][:0])
		}
		return c.Insert(w.docs[:]...)
	case 8: // cancel_flight
		w.filter = doc1(f, func(d []byte) []byte { return bsoncore.AppendInt64Element(d, "flight_id", key) })
		return c.DeleteOne(w.filter)
	default: // nearly_full_by_destination
		w.filter = w.pipeline(f, r.Int32N(11))
		return c.Aggregate(w.filter)
	}
}

// flight appends a flight document of the default template's shape.
func (w *worker) flight(d []byte) []byte {
	r := w.r
	return doc1(d, func(d []byte) []byte {
		d = bsoncore.AppendObjectIDElement(d, "_id", bson.NewObjectID())
		d = bsoncore.AppendInt64Element(d, "flight_id", nextKey.Add(1))
		d = bsoncore.AppendInt32Element(d, "duration_minutes", 35+r.Int32N(926))
		d = bsoncore.AppendStringElement(d, "origin", cities[r.IntN(len(cities))])
		d = bsoncore.AppendStringElement(d, "destination", cities[r.IntN(len(cities))])
		d = appendPattern(d, r, "gate", "?##")
		d = bsoncore.AppendInt32Element(d, "seats_available", r.Int32N(301))
		var a int32
		a, d = bsoncore.AppendArrayElementStart(d, "passengers")
		for i, n := 0, 8+r.IntN(17); i < n; i++ {
			var p int32
			p, d = bsoncore.AppendDocumentElementStart(d, index[i])
			d = bsoncore.AppendInt32Element(d, "passenger_id", 1+r.Int32N(400))
			d = appendName(d, r, "name")
			d = appendPattern(d, r, "seat_number", "##?")
			d = appendPattern(d, r, "ticket_number", "TCK-########")
			d, _ = bsoncore.AppendDocumentEnd(d, p)
		}
		d, _ = bsoncore.AppendArrayEnd(d, a)
		d = bsoncore.AppendStringElement(d, "agent_first_name", first[r.IntN(len(first))])
		d = bsoncore.AppendStringElement(d, "agent_last_name", last[r.IntN(len(last))])
		d = bsoncore.AppendDateTimeElement(d, "flight_date", 1735689600000+r.Int64N(63072000000))
		d = appendPattern(d, r, "flight_code", "??###")
		return appendDoc(d, "equipment", func(d []byte) []byte {
			d = bsoncore.AppendStringElement(d, "plane_type", planes[r.IntN(len(planes))])
			d = bsoncore.AppendInt32Element(d, "total_seats", 40+r.Int32N(361))
			var a int32
			a, d = bsoncore.AppendArrayElementStart(d, "amenities")
			for i, n := 0, 1+r.IntN(5); i < n; i++ {
				d = bsoncore.AppendStringElement(d, index[i], amenities[r.IntN(len(amenities))])
			}
			d, _ = bsoncore.AppendArrayEnd(d, a)
			return d
		})
	})
}

// pipeline appends the nearly_full_by_destination pipeline as an array.
func (w *worker) pipeline(d []byte, lte int32) []byte {
	a, d := bsoncore.AppendArrayStart(d)
	d = appendDoc(d, "0", func(d []byte) []byte {
		return appendDoc(d, "$match", func(d []byte) []byte {
			return appendDoc(d, "seats_available", func(d []byte) []byte { return bsoncore.AppendInt32Element(d, "$lte", lte) })
		})
	})
	d = appendDoc(d, "1", func(d []byte) []byte {
		return appendDoc(d, "$group", func(d []byte) []byte {
			d = bsoncore.AppendStringElement(d, "_id", "$destination")
			d = appendDoc(d, "flights", func(d []byte) []byte { return bsoncore.AppendInt32Element(d, "$sum", 1) })
			return appendDoc(d, "seats", func(d []byte) []byte { return bsoncore.AppendStringElement(d, "$sum", "$seats_available") })
		})
	})
	d = appendDoc(d, "2", func(d []byte) []byte {
		return appendDoc(d, "$sort", func(d []byte) []byte { return bsoncore.AppendInt32Element(d, "flights", -1) })
	})
	d = appendDoc(d, "3", func(d []byte) []byte { return bsoncore.AppendInt32Element(d, "$limit", 10) })
	d, _ = bsoncore.AppendArrayEnd(d, a)
	return d
}

var index = func() (s [24]string) {
	for i := range s {
		s[i] = fmt.Sprint(i)
	}
	return s
}()

// appendPattern appends a string element from a pattern: '#' a digit, '?' an
// upper-case letter, anything else itself (like the template's $gen: pattern).
func appendPattern(d []byte, r *rand.Rand, key, pattern string) []byte {
	d = bsoncore.AppendHeader(d, bsoncore.TypeString, key)
	d = bsoncore.AppendInt32(d, int32(len(pattern)+1))
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '#':
			d = append(d, '0'+byte(r.IntN(10)))
		case '?':
			d = append(d, 'A'+byte(r.IntN(26)))
		default:
			d = append(d, pattern[i])
		}
	}
	return append(d, 0)
}

// appendName appends "First Last" without building a string.
func appendName(d []byte, r *rand.Rand, key string) []byte {
	f, l := first[r.IntN(len(first))], last[r.IntN(len(last))]
	d = bsoncore.AppendHeader(d, bsoncore.TypeString, key)
	d = bsoncore.AppendInt32(d, int32(len(f)+1+len(l)+1))
	d = append(d, f...)
	d = append(d, ' ')
	d = append(d, l...)
	return append(d, 0)
}

func doc(body func([]byte) []byte) []byte { return doc1(nil, body) }

// doc1 appends a document whose elements body appends.
func doc1(d []byte, body func([]byte) []byte) []byte {
	i, d := bsoncore.AppendDocumentStart(d)
	d = body(d)
	d, _ = bsoncore.AppendDocumentEnd(d, i)
	return d
}

// appendDoc appends an embedded document element.
func appendDoc(d []byte, key string, body func([]byte) []byte) []byte {
	i, d := bsoncore.AppendDocumentElementStart(d, key)
	d = body(d)
	d, _ = bsoncore.AppendDocumentEnd(d, i)
	return d
}
