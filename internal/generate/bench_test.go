package generate

import (
	"sync/atomic"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// flightTemplate is a realistic airline-flight document of about 2 KB.
const flightTemplate = `
_id: {$gen: objectId}
flight_id: {$gen: key}
origin: {$gen: city}
destination: {$gen: city}
gate: {$gen: pattern, pattern: "?##"}
seats: {$gen: int, min: 50, max: 350}
duration_minutes: {$gen: int, min: 45, max: 900}
passengers:
  $gen: array
  min: 5
  max: 30
  of:
    passenger_id: {$gen: long, min: 1, max: 100000000}
    name: {$gen: name}
    seat_number: {$gen: pattern, pattern: "##?"}
    ticket_number: {$gen: pattern, pattern: "TCK-########"}
agent:
  first_name: {$gen: firstName}
  last_name: {$gen: lastName}
flight_date: {$gen: date, from: 2024-01-01, to: 2025-12-31}
flight_code: {$gen: pattern, pattern: "??####"}
status: scheduled
equipment:
  plane_type: {$gen: enum, values: [A320, A321neo, B737-800, B787-9, E190], weights: [30, 20, 30, 10, 10]}
  total_seats: {$gen: int, min: 100, max: 350}
  amenities: {$gen: array, min: 1, max: 4, of: {$gen: enum, values: [wifi, power, meals, entertainment, lounge]}}
`

func flightDocument(b *testing.B) *Document {
	d, err := CompileDocument(parse(b, flightTemplate), &Env{
		Mode:     Insert,
		Seed:     1,
		KeySpace: func(string) *KeySpace { return NewKeySpace(0, 0) },
	})
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkFlightDocument measures generating one flight document into a
// reused buffer: the hot path of inserts, which must not allocate.
func BenchmarkFlightDocument(b *testing.B) {
	d := flightDocument(b)
	st := NewState(1, 1)
	buf := d.Append(nil, st) // warm-up: grow the buffer once
	if err := bson.Raw(buf).Validate(); err != nil {
		b.Fatal(err)
	}
	total := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		buf = d.Append(buf[:0], st)
		total += len(buf)
	}
	b.ReportMetric(float64(total)/float64(b.N), "docbytes/op")
}

// BenchmarkFlightDocumentParallel is the same with every core generating,
// one State per goroutine, sharing the compiled template and key space.
func BenchmarkFlightDocumentParallel(b *testing.B) {
	d := flightDocument(b)
	var stream atomic.Uint64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		st := NewState(1, stream.Add(1))
		buf := d.Append(nil, st)
		for pb.Next() {
			buf = d.Append(buf[:0], st)
		}
	})
}

// BenchmarkFilter measures building the filter {flight_id: <existing key>}
// for each key distribution: the hot path of point reads and updates.
func BenchmarkFilter(b *testing.B) {
	ks := NewKeySpace(0, 10_000_000)
	for _, dist := range []string{"uniform", "zipfian", "latest", "sequential"} {
		b.Run(dist, func(b *testing.B) {
			d, err := CompileDocument(parse(b, `{flight_id: {$gen: key, distribution: `+dist+`}}`),
				&Env{Mode: Query, KeySpace: func(string) *KeySpace { return ks }})
			if err != nil {
				b.Fatal(err)
			}
			st := NewState(1, 1)
			buf := d.Append(nil, st)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				buf = d.Append(buf[:0], st)
			}
		})
	}
}

// TestFlightDocumentAllocs enforces the zero-allocation hot path in the
// ordinary test run, not only when someone reads benchmark output.
func TestFlightDocumentAllocs(t *testing.T) {
	d, err := CompileDocument(parse(t, flightTemplate), &Env{
		Mode:     Insert,
		KeySpace: func(string) *KeySpace { return NewKeySpace(0, 0) },
	})
	if err != nil {
		t.Fatal(err)
	}
	st := NewState(1, 1)
	buf := make([]byte, 0, 64<<10)
	if n := testing.AllocsPerRun(200, func() { buf = d.Append(buf[:0], st) }); n != 0 {
		t.Errorf("%v allocations per document, want 0", n)
	}
	doc := bson.Raw(buf)
	if err := doc.Validate(); err != nil {
		t.Fatal(err)
	}
	ps, _ := doc.Lookup("passengers").Array().Values()
	if len(ps) < 5 || len(ps) > 30 {
		t.Errorf("%d passengers", len(ps))
	}
}

// BenchmarkBinary measures a YCSB field value, 100 bytes, drawn uniformly
// and as YCSB's RandomByteIterator draws them (bytes: ycsb).
func BenchmarkBinary(b *testing.B) {
	for _, bytes := range []string{"random", "ycsb"} {
		b.Run(bytes, func(b *testing.B) {
			g := compile(b, `{$gen: binary, length: 100, bytes: `+bytes+`}`, nil)
			st := NewState(1, 1)
			_, buf := g.Append(nil, st)
			b.ReportAllocs()
			b.SetBytes(100)
			b.ResetTimer()
			for b.Loop() {
				_, buf = g.Append(buf[:0], st)
			}
		})
	}
}
