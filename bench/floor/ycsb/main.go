// Command ycsb is the floor for YCSB workload A that make bench measures
// mongoload against: only what any client must do for it, and nothing else.
// Each worker draws a zipfian record, sends a findOne by _id (the whole
// document, decoded by nobody) or an updateOne by _id that $sets one of the
// ten fields to 100 fresh random bytes, and counts it. Filters and updates
// are raw BSON appended into a buffer the worker reuses: no fmt, no maps, no
// bson.D, no histograms. Same pool (the driver's default), same number of
// goroutines as mongoload's workers, same keys (read from the collection)
// and same collection.
//
// It prints "ops=N ops/s=R errors=E" for the measured duration.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/mongoload/mongoload/bench/floor/loop"
)

var (
	uri      = flag.String("uri", "mongodb://127.0.0.1:27017", "server")
	db       = flag.String("db", "ycsb", "database")
	coll     = flag.String("collection", "usertable", "collection (loaded by mongoload or YCSB)")
	workers  = flag.Int("concurrency", 8, "workers (goroutines)")
	duration = flag.Duration("duration", 15*time.Second, "how long")
	readPct  = flag.Int("read", 50, "percentage of reads; the rest are updates")
	keysDist = flag.String("keys", "zipfian", "record choice: zipfian (as YCSB A) or uniform (as the acceptance check's tools/driverfloor)")
	value    = flag.String("value", "fresh", "update value: fresh (100 new random bytes, as YCSB) or constant (the same bytes every time, as tools/driverfloor: after a record's first update, the server modifies nothing)")
	cpuProf  = flag.String("cpuprofile", "", "write a CPU profile of the measured loop to this file (to compare with mongoload's, MONGOLOAD_PPROF)")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run() error {
	if *keysDist != "zipfian" && *keysDist != "uniform" {
		return fmt.Errorf("-keys %q: want zipfian or uniform", *keysDist)
	}
	if *value != "fresh" && *value != "constant" {
		return fmt.Errorf("-value %q: want fresh or constant", *value)
	}
	ctx := context.Background()
	cl, err := mongo.Connect(options.Client().ApplyURI(*uri))
	if err != nil {
		return err
	}
	defer cl.Disconnect(ctx)
	c := cl.Database(*db).Collection(*coll)
	ids, err := keys(ctx, c)
	if err != nil {
		return err
	}
	if *cpuProf != "" {
		f, err := os.Create(*cpuProf)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	ops, errs := loop.Run(*workers, *duration, func(w int) func() error {
		// Fresh seeds each run, as mongoload draws: a floor replaying its last
		// run would write values already there, work the server skips.
		r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
		// Zipfian over the records: the standard library needs s > 1,
		// YCSB uses 0.99; the skew is nearly the same and costs the
		// client the same few nanoseconds.
		z := rand.NewZipf(r, 1.0001, 1, uint64(len(ids)-1))
		var filter, update []byte
		var payload [100]byte
		return func() error {
			var id string
			if *keysDist == "zipfian" {
				id = ids[z.Uint64()]
			} else {
				id = ids[r.IntN(len(ids))]
			}
			filter = idFilter(filter[:0], id)
			var err error
			if r.IntN(100) < *readPct {
				err = c.FindOne(ctx, bson.Raw(filter)).Err()
			} else {
				if *value == "fresh" {
					fill(r, payload[:])
				}
				update = setField(update[:0], r.IntN(10), payload[:])
				_, err = c.UpdateOne(ctx, bson.Raw(filter), bson.Raw(update))
			}
			if errors.Is(err, mongo.ErrNoDocuments) {
				return nil
			}
			return err
		}
	})
	fmt.Println(loop.Report(ops, errs, *duration))
	return nil
}

// keys reads every _id of the collection once, before the measured loop.
func keys(ctx context.Context, c *mongo.Collection) ([]string, error) {
	cur, err := c.Find(ctx, bson.D{}, options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, err
	}
	var ids []string
	for cur.Next(ctx) {
		ids = append(ids, cur.Current.Lookup("_id").StringValue())
	}
	if len(ids) < 2 {
		return nil, fmt.Errorf("%d records in %s: load YCSB records first", len(ids), c.Name())
	}
	return ids, cur.Err()
}

// idFilter appends {_id: id}.
func idFilter(dst []byte, id string) []byte {
	i, dst := bsoncore.AppendDocumentStart(dst)
	dst = bsoncore.AppendStringElement(dst, "_id", id)
	dst, _ = bsoncore.AppendDocumentEnd(dst, i)
	return dst
}

var fields = [10]string{"field0", "field1", "field2", "field3", "field4", "field5", "field6", "field7", "field8", "field9"}

// setField appends {$set: {fieldN: BinData(payload)}}.
func setField(dst []byte, n int, payload []byte) []byte {
	i, dst := bsoncore.AppendDocumentStart(dst)
	j, dst := bsoncore.AppendDocumentElementStart(dst, "$set")
	dst = bsoncore.AppendBinaryElement(dst, fields[n], 0, payload)
	dst, _ = bsoncore.AppendDocumentEnd(dst, j)
	dst, _ = bsoncore.AppendDocumentEnd(dst, i)
	return dst
}

// fill writes random bytes, eight at a time.
func fill(r *rand.Rand, b []byte) {
	for len(b) >= 8 {
		v := r.Uint64()
		for k := 0; k < 8; k++ {
			b[k] = byte(v >> (8 * k))
		}
		b = b[8:]
	}
	for k := range b {
		b[k] = byte(r.Uint64())
	}
}
