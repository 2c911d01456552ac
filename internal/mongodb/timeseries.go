package mongodb

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/workload"
)

// createOptions are the create command's options for col: a time-series
// collection's definition, or none.
func createOptions(col *workload.Collection) *options.CreateCollectionOptionsBuilder {
	o := options.CreateCollection()
	ts := col.Timeseries
	if ts == nil {
		return o
	}
	t := options.TimeSeries().SetTimeField(ts.TimeField)
	if ts.MetaField != "" {
		t.SetMetaField(ts.MetaField)
	}
	if ts.Granularity != "" {
		t.SetGranularity(ts.Granularity)
	}
	if ts.BucketMaxSpanSeconds > 0 {
		t.SetBucketMaxSpan(secs(ts.BucketMaxSpanSeconds)).SetBucketRounding(secs(ts.BucketRoundingSeconds))
	}
	o.SetTimeSeriesOptions(t)
	if ts.ExpireAfterSeconds > 0 {
		o.SetExpireAfterSeconds(ts.ExpireAfterSeconds)
	}
	return o
}

// createError says what failed: for a time-series collection, most often
// a server without them (MongoDB before 5.0, or one that refuses the
// options), which the user fixes in the workload, not on the server.
func createError(col *workload.Collection, err error) error {
	if col.Timeseries == nil {
		return fmt.Errorf("create %s: %w", col.Namespace(), err)
	}
	return &lacksError{fmt.Sprintf("create %s as a time-series collection (%s): the server refused it (time-series collections need MongoDB 5.0+, bucketMaxSpanSeconds 6.3+): %s; remove timeseries: from the collection to run it as a plain one", col.Namespace(), col.Timeseries, oneLine(err))}
}

// checkKind refuses a collection that exists as the other kind than the
// workload declares: measuring a plain collection as a time-series one (or
// the reverse) would measure the wrong thing.
func (cl *Client) checkKind(ctx context.Context, col *workload.Collection) error {
	kind, err := cl.collectionType(ctx, col.Database, col.Name)
	if err != nil {
		return err
	}
	want := "collection"
	if col.Timeseries != nil {
		want = "timeseries"
	}
	switch {
	case kind == want || kind == "" || col.OutputOnly:
		return nil
	case want == "timeseries":
		return fmt.Errorf("%s exists as a plain collection, and the workload declares it a time-series collection: name another collection (or drop this one yourself if it is yours)", col.Namespace())
	case kind == "timeseries":
		return fmt.Errorf("%s exists as a time-series collection, and the workload declares a plain one: add its timeseries: definition to the collection, or name another collection", col.Namespace())
	}
	return nil
}

// checkDropKind applies the kind rule to a collection --drop will drop
// and recreate: one of the other kind is dropped only if mongoload
// created it (a workload that changed its kind), and then said; someone
// else's is refused, as without --drop: a plain collection of the
// workload's name where it declares a time-series one is not the
// workload's, and nothing is dropped (docs/timeseries.md).
func (cl *Client) checkDropKind(ctx context.Context, col *workload.Collection) (notice string, err error) {
	kind, err := cl.collectionType(ctx, col.Database, col.Name)
	if err != nil || kind == "" || col.OutputOnly || (kind == "timeseries") == (col.Timeseries != nil) {
		return "", err
	}
	ours, err := cl.readMeta(ctx, col, &metaDoc{})
	if err != nil {
		return "", err
	}
	was, now := "a plain collection", "a time-series one"
	if col.Timeseries == nil {
		was, now = "a time-series collection", "a plain one"
	}
	if !ours {
		return "", fmt.Errorf("%s exists as %s mongoload did not create, and the workload declares it %s: --drop drops the workload's collections, not another kind of collection of the same name; name another collection (or drop this one yourself if it is yours)", col.Namespace(), was, now)
	}
	return fmt.Sprintf("--drop: %s was %s (created by mongoload); it is dropped and created again as %s, as the workload declares", col.Namespace(), was, now), nil
}

// collectionType is listCollections' type of db.name: "collection",
// "timeseries", "view", or "" when it does not exist or the server does
// not say.
func (cl *Client) collectionType(ctx context.Context, db, name string) (string, error) {
	specs, err := cl.c.Database(db).ListCollectionSpecifications(ctx, bson.D{{Key: "name", Value: name}})
	if err != nil {
		return "", fmt.Errorf("list collections of %s: %w", db, err)
	}
	for _, s := range specs {
		if s.Name == name {
			return s.Type, nil
		}
	}
	return "", nil
}

func secs(n int64) time.Duration { return time.Duration(n) * time.Second }

// oneLine is err's message on one line.
func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }
