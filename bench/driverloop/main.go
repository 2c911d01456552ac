// Command driverloop is the floor that bench/run.sh compares mongoload with:
// the default workload's operations (same mix, same filters, documents of
// the same shape) written as a plain loop over the Go driver, the way one
// would hand-write the benchmark, with no generators, histograms or reports.
// It prints the operations it completed.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

var (
	uri         = flag.String("uri", "mongodb://127.0.0.1:27017", "server")
	workers     = flag.Int("concurrency", 8, "workers")
	duration    = flag.Duration("duration", 20*time.Second, "how long")
	keys        = flag.Int64("keys", 10000, "existing flight_id keys [0, keys)")
	planes      = []string{"Boeing 737", "Boeing 777", "Boeing 787", "Airbus A320", "Airbus A321", "Airbus A350", "Embraer E190"}
	cities      = []string{"Greensboro", "Chicago", "Lisbon", "Osaka", "Denver", "Lyon", "Accra", "Perth"}
	names       = []string{"Janet Miller", "Keagan Reynolds", "Ana Silva", "Tom Baker", "Li Wei", "Sara Cohen"}
	weights     = []int{24, 10, 12, 8, 15, 6, 5, 5, 10, 5}
	nextKey     atomic.Int64
	completed   atomic.Int64
	errorsCount atomic.Int64
)

func main() {
	flag.Parse()
	c, err := mongo.Connect(options.Client().ApplyURI(*uri))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	coll := c.Database("airline").Collection("flights")
	nextKey.Store(*keys + 1_000_000_000) // inserts take fresh keys
	ctx, cancel := context.WithTimeout(context.Background(), *duration)
	defer cancel()
	var wg sync.WaitGroup
	for w := 0; w < *workers; w++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(id), 7))
			for ctx.Err() == nil {
				if err := one(ctx, coll, r); err != nil && ctx.Err() == nil {
					errorsCount.Add(1)
					continue
				}
				completed.Add(1)
			}
		}(w)
	}
	wg.Wait()
	fmt.Printf("operations %d errors %d\n", completed.Load(), errorsCount.Load())
}

func pick(r *rand.Rand) int {
	n := r.IntN(100)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return 0
}

func one(ctx context.Context, coll *mongo.Collection, r *rand.Rand) error {
	key := r.Int64N(*keys)
	switch pick(r) {
	case 0:
		err := coll.FindOne(ctx, bson.D{{Key: "flight_id", Value: key}}).Err()
		if err == mongo.ErrNoDocuments {
			return nil
		}
		return err
	case 1:
		return drain(coll.Find(ctx, bson.D{{Key: "flight_id", Value: key}}, options.Find().SetProjection(bson.D{
			{Key: "_id", Value: 0}, {Key: "flight_code", Value: 1}, {Key: "origin", Value: 1}, {Key: "destination", Value: 1},
			{Key: "gate", Value: 1}, {Key: "flight_date", Value: 1}, {Key: "seats_available", Value: 1}})))
	case 2:
		return drain(coll.Find(ctx, bson.D{{Key: "seats_available", Value: r.IntN(301)}},
			options.Find().SetSort(bson.D{{Key: "flight_id", Value: 1}}).SetLimit(10)))
	case 3:
		return drain(coll.Find(ctx, bson.D{{Key: "equipment.plane_type", Value: planes[r.IntN(len(planes))]}},
			options.Find().SetProjection(bson.D{{Key: "flight_id", Value: 1}, {Key: "flight_code", Value: 1}, {Key: "equipment", Value: 1}}).SetLimit(20)))
	case 4:
		_, err := coll.UpdateOne(ctx, bson.D{{Key: "flight_id", Value: key}, {Key: "seats_available", Value: bson.D{{Key: "$gt", Value: 0}}}},
			bson.D{{Key: "$inc", Value: bson.D{{Key: "seats_available", Value: -1}}}})
		return err
	case 5:
		_, err := coll.UpdateOne(ctx, bson.D{{Key: "flight_id", Value: key}}, bson.D{{Key: "$set", Value: bson.D{
			{Key: "gate", Value: fmt.Sprintf("%c%d", 'A'+r.IntN(6), r.IntN(40))},
			{Key: "agent_first_name", Value: names[r.IntN(len(names))]}, {Key: "agent_last_name", Value: names[r.IntN(len(names))]}}}})
		return err
	case 6:
		_, err := coll.InsertOne(ctx, flight(r))
		return err
	case 7:
		docs := make([]any, 10)
		for i := range docs {
			docs[i] = flight(r)
		}
		_, err := coll.InsertMany(ctx, docs)
		return err
	case 8:
		_, err := coll.DeleteOne(ctx, bson.D{{Key: "flight_id", Value: key}})
		return err
	default:
		return drain(coll.Aggregate(ctx, bson.A{
			bson.D{{Key: "$match", Value: bson.D{{Key: "seats_available", Value: bson.D{{Key: "$lte", Value: r.IntN(11)}}}}}},
			bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$destination"}, {Key: "flights", Value: bson.D{{Key: "$sum", Value: 1}}},
				{Key: "seats", Value: bson.D{{Key: "$sum", Value: "$seats_available"}}}}}},
			bson.D{{Key: "$sort", Value: bson.D{{Key: "flights", Value: -1}}}},
			bson.D{{Key: "$limit", Value: 10}},
		}))
	}
}

func flight(r *rand.Rand) bson.D {
	passengers := make(bson.A, 8+r.IntN(17))
	for i := range passengers {
		passengers[i] = bson.D{{Key: "passenger_id", Value: r.IntN(400) + 1}, {Key: "name", Value: names[r.IntN(len(names))]},
			{Key: "seat_number", Value: fmt.Sprintf("%d%c", r.IntN(40)+1, 'A'+r.IntN(6))},
			{Key: "ticket_number", Value: fmt.Sprintf("TCK-%08d", r.IntN(100000000))}}
	}
	return bson.D{
		{Key: "_id", Value: bson.NewObjectID()}, {Key: "flight_id", Value: nextKey.Add(1)},
		{Key: "duration_minutes", Value: 35 + r.IntN(926)}, {Key: "origin", Value: cities[r.IntN(len(cities))]},
		{Key: "destination", Value: cities[r.IntN(len(cities))]}, {Key: "gate", Value: fmt.Sprintf("%c%02d", 'A'+r.IntN(26), r.IntN(100))},
		{Key: "seats_available", Value: r.IntN(301)}, {Key: "passengers", Value: passengers},
		{Key: "agent_first_name", Value: names[r.IntN(len(names))]}, {Key: "agent_last_name", Value: names[r.IntN(len(names))]},
		{Key: "flight_date", Value: time.Unix(1735689600+r.Int64N(63072000), 0)},
		{Key: "flight_code", Value: fmt.Sprintf("%c%c%03d", 'A'+r.IntN(26), 'A'+r.IntN(26), r.IntN(1000))},
		{Key: "equipment", Value: bson.D{{Key: "plane_type", Value: planes[r.IntN(len(planes))]}, {Key: "total_seats", Value: 40 + r.IntN(361)},
			{Key: "amenities", Value: bson.A{"WiFi", "Power outlets"}}}},
	}
}

func drain(cur *mongo.Cursor, err error) error {
	if err != nil {
		return err
	}
	defer cur.Close(context.Background())
	for cur.Next(context.Background()) {
	}
	return cur.Err()
}
