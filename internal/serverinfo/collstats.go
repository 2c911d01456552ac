package serverinfo

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// CollStats reads one collection's statistics: the collStats command, or
// where a server has dropped it, the $collStats stage (summed over shards).
// blockCompressor is the compressor the collection was created with, "" if
// the reply does not say.
func CollStats(ctx context.Context, c Commander, namespace string, now time.Time) (st *results.CollStats, blockCompressor string, err error) {
	db, coll, _ := strings.Cut(namespace, ".")
	run := func(cmd bson.D) (bson.Raw, error) {
		ctx, cancel := context.WithTimeout(ctx, CommandTimeout)
		defer cancel()
		return c.Command(ctx, db, cmd)
	}
	raw, err := run(bson.D{{Key: "collStats", Value: coll}})
	if err == nil {
		st, blockCompressor = ParseCollStats(raw)
		st.At = now
		return st, blockCompressor, nil
	}
	agg, err2 := run(bson.D{{Key: "aggregate", Value: coll}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$collStats", Value: bson.D{{Key: "storageStats", Value: bson.D{}}}}}}}, {Key: "cursor", Value: bson.D{}}})
	if err2 != nil {
		return nil, "", fmt.Errorf("collStats %s: %w", namespace, err)
	}
	st, blockCompressor = ParseCollStatsStage(agg)
	st.At = now
	return st, blockCompressor, nil
}

// ParseCollStats reads a collStats reply.
func ParseCollStats(raw bson.Raw) (*results.CollStats, string) {
	st := &results.CollStats{}
	num := func(name string) *int64 {
		if v, err := raw.LookupErr(name); err == nil {
			if n, ok := v.AsInt64OK(); ok {
				return &n
			}
		}
		return nil
	}
	st.Count, st.DataSize, st.StorageSize = num("count"), num("size"), num("storageSize")
	st.TotalIndexSize, st.AvgObjSize = num("totalIndexSize"), num("avgObjSize")
	st.Sharded, _ = raw.Lookup("sharded").BooleanOK()
	if d, ok := raw.Lookup("indexSizes").DocumentOK(); ok {
		elems, _ := d.Elements()
		for _, e := range elems {
			if n, ok := e.Value().AsInt64OK(); ok {
				if st.IndexSizes == nil {
					st.IndexSizes = map[string]int64{}
				}
				st.IndexSizes[e.Key()] = n
			}
		}
	}
	creation, _ := raw.Lookup("wiredTiger", "creationString").StringValueOK()
	return st, BlockCompressorOf(creation)
}

// ParseCollStatsStage reads the documents of a $collStats {storageStats}
// aggregation, one per shard, and adds them up.
func ParseCollStatsStage(raw bson.Raw) (*results.CollStats, string) {
	total := &results.CollStats{}
	arr, ok := raw.Lookup("cursor", "firstBatch").ArrayOK()
	if !ok {
		return total, ""
	}
	vals, _ := arr.Values()
	var compressor string
	for _, v := range vals {
		d, ok := v.DocumentOK()
		if !ok {
			continue
		}
		ss, ok := d.Lookup("storageStats").DocumentOK()
		if !ok {
			continue
		}
		st, bc := ParseCollStats(ss)
		compressor = cmp.Or(compressor, bc)
		total.Count = add(total.Count, st.Count)
		total.DataSize = add(total.DataSize, st.DataSize)
		total.StorageSize = add(total.StorageSize, st.StorageSize)
		total.TotalIndexSize = add(total.TotalIndexSize, st.TotalIndexSize)
		for k, n := range st.IndexSizes {
			if total.IndexSizes == nil {
				total.IndexSizes = map[string]int64{}
			}
			total.IndexSizes[k] += n
		}
		if _, err := d.LookupErr("shard"); err == nil && len(vals) > 1 {
			total.Sharded = true
		}
	}
	if total.Count != nil && *total.Count > 0 && total.DataSize != nil {
		avg := *total.DataSize / *total.Count
		total.AvgObjSize = &avg
	}
	return total, compressor
}

func add(sum, v *int64) *int64 {
	if v == nil {
		return sum
	}
	n := *v
	if sum != nil {
		n += *sum
	}
	return &n
}

var blockCompressorRe = regexp.MustCompile(`(?:^|,)block_compressor=([a-z0-9]*)`)

// BlockCompressorOf reads block_compressor from a WiredTiger creation
// string; "none" when it is set empty, "" when it is not there.
func BlockCompressorOf(creation string) string {
	m := blockCompressorRe.FindStringSubmatch(creation)
	if m == nil {
		return ""
	}
	if m[1] == "" {
		return "none"
	}
	return m[1]
}
