package capture

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
)

// A time-series collection keeps its measurements in buckets, a
// collection of its own (system.buckets.NAME) that the server writes for
// it: a write logged there is a write of the time-series collection.

// readTimeseries reads, from listCollections, whether the collection is a
// time-series one and its definition, so that the workload creates it as
// one: its inserts and queries cost nothing like a plain collection's.
func (c *Collection) readTimeseries(ctx context.Context, srv source.Server) {
	raw, err := srv.Command(ctx, c.DB, bson.D{{Key: "listCollections", Value: 1}, {Key: "filter", Value: bson.D{{Key: "name", Value: c.Name}}}})
	if err != nil {
		c.Notes = append(c.Notes, "listCollections: "+source.FirstLine(err))
		return
	}
	spec, ok := raw.Lookup("cursor", "firstBatch", "0").DocumentOK()
	if !ok || spec.Lookup("type").StringValue() != "timeseries" {
		return
	}
	opts := spec.Lookup("options")
	o := opts.Document().Lookup("timeseries").Document()
	ts := &config.Timeseries{
		TimeField:   o.Lookup("timeField").StringValue(),
		MetaField:   o.Lookup("metaField").StringValue(),
		Granularity: o.Lookup("granularity").StringValue(),
	}
	// With a granularity the server reports the bucket span it implies:
	// the granularity alone says it. Without one, the spans are the user's.
	if ts.Granularity == "" {
		ts.BucketMaxSpanSeconds = int64(mongodb.Number(o.Lookup("bucketMaxSpanSeconds")))
		ts.BucketRoundingSeconds = int64(mongodb.Number(o.Lookup("bucketRoundingSeconds")))
	}
	ts.ExpireAfterSeconds = int64(mongodb.Number(opts.Document().Lookup("expireAfterSeconds")))
	c.Timeseries = ts
	c.Notes = append(c.Notes, fmt.Sprintf("a time-series collection (%s), as listCollections gives it: created as one", ts))
}

// timeseriesOf is the collection's time-series definition for a workload
// whose template is template: none, with a note, when the sample wrote
// no time field (a workload could not insert a measurement).
func (c *Collection) timeseriesOf(template config.Value) *config.Timeseries {
	ts := c.Timeseries
	if ts == nil {
		return nil
	}
	for _, f := range template.Fields {
		if f.Key == ts.TimeField {
			return ts
		}
	}
	c.Notes = append(c.Notes, fmt.Sprintf("written as a plain collection: the sample shows no time field %s (a time-series collection needs it in every document)", ts.TimeField))
	return nil
}
