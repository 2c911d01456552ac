// Command ycsb is the floor for YCSB workload A that make bench measures
// mongoload against: only what any client must do for it, and nothing else.
// Each worker draws a record as YCSB's requestdistribution=zipfian does
// (scrambled zipfian), makes its key as YCSB does ("user" and the FNV hash
// of the record number), and sends a findOne by _id (the whole document,
// decoded by nobody) or an updateOne by _id that $sets one of the ten
// fields to 100 fresh bytes drawn as YCSB's RandomByteIterator draws them
// (ycsb.go). Filters and updates are raw BSON appended into buffers the
// worker reuses: no fmt, no maps, no bson.D, no histograms. Same pool (the
// driver's default), same number of goroutines as mongoload's workers, same
// records (mongoload load ycsb-a, or YCSB's own load) and same collection.
// With -client wire the same operations go out with no driver, one OP_MSG
// written and one read each (bench/floor/client): the wire floor.
//
// It prints "ops=N ops/s=R errors=E" for the measured duration.
package main

import (
	"context"
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

	"github.com/mongoload/mongoload/bench/floor/client"
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
	kind     = flag.String("client", "driver", "driver (the official driver, its cheapest use) or wire (one OP_MSG per operation, no driver: the physical floor)")
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
	records, err := count()
	if err != nil {
		return err
	}
	if records < 2 {
		return fmt.Errorf("%d records in %s: load YCSB records first (mongoload load ycsb-a)", records, *coll)
	}
	clients, err := client.Open(*kind, *uri, *db, *coll)
	if err != nil {
		return err
	}
	defer clients.Close()
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
		var filter, update, key []byte
		var payload [100]byte
		c, err := clients.New()
		if err != nil {
			return func() error { return err }
		}
		return func() error {
			var record uint64
			if *keysDist == "zipfian" {
				record = scrambledZipfian(r, uint64(records))
			} else {
				record = r.Uint64N(uint64(records))
			}
			key = appendKey(key[:0], record)
			filter = idFilter(filter[:0], key)
			if r.IntN(100) < *readPct {
				return c.FindOne(filter) // a record not found is an error, as in YCSB: the keys must be the loaded ones
			}
			if *value == "fresh" {
				fillYCSB(r, payload[:])
			}
			update = setField(update[:0], r.IntN(10), payload[:])
			return c.UpdateOne(filter, update)
		}
	})
	fmt.Println(loop.Report(ops, errs, *duration))
	return nil
}

// count is the number of records, read once before the measured loop.
func count() (int64, error) {
	ctx := context.Background()
	cl, err := mongo.Connect(options.Client().ApplyURI(*uri))
	if err != nil {
		return 0, err
	}
	defer cl.Disconnect(ctx)
	return cl.Database(*db).Collection(*coll).CountDocuments(ctx, bson.D{})
}

// idFilter appends {_id: id}.
func idFilter(dst []byte, id []byte) []byte {
	i, dst := bsoncore.AppendDocumentStart(dst)
	dst = bsoncore.AppendHeader(dst, bsoncore.TypeString, "_id")
	dst = bsoncore.AppendInt32(dst, int32(len(id)+1))
	dst = append(append(dst, id...), 0)
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
