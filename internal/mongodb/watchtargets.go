package mongodb

import (
	"context"
	"fmt"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/workload"
)

// checkWatchTargets refuses, before anything is written, a watcher the
// server will not serve: one of a time-series collection, or one with
// fullDocument: required on a collection the run's writes will change
// without post-images: the server then fails the stream at the first
// update, replace or delete, and no resume can get past that event.
// mongoload never turns a collection's post-images on (that alters it):
// a collection it creates has none, and an existing one has them only if
// its owner turned them on. A database watcher is checked on the
// workload's collections in that database (the ones the run writes).
func (cl *Client) checkWatchTargets(ctx context.Context, plan *workload.Plan, drop bool) error {
	for _, w := range plan.Watchers {
		if err := cl.checkNotTimeseries(ctx, plan, w); err != nil {
			return err
		}
		if w.FullDocument != "required" {
			continue
		}
		for _, ns := range postImageTargets(plan, w) {
			why, err := cl.lacksPostImages(ctx, plan, ns, drop)
			if err != nil {
				return err
			}
			if why != "" {
				return &lacksError{fmt.Sprintf("watcher %s: fullDocument: required needs the post-image of every changed document, and %s %s (mongoload never turns them on): use fullDocument: updateLookup or whenAvailable, or turn them on with collMod {changeStreamPreAndPostImages: {enabled: true}} on a collection that is yours", w.Name, ns, why)}
			}
		}
	}
	return nil
}

// checkNotTimeseries refuses, before anything is created, a watcher of a
// time-series collection (the workload's, or one that exists): the
// server opens no change stream on one, and the refusal came only after
// setup and seeding.
func (cl *Client) checkNotTimeseries(ctx context.Context, plan *workload.Plan, w *workload.Watcher) error {
	if w.Collection == "" {
		return nil
	}
	ts := false
	for _, col := range plan.AllCollections() {
		if col.Namespace() == w.Target() {
			ts = col.Timeseries != nil
		}
	}
	if !ts {
		kind, err := cl.collectionType(ctx, w.Database, w.Collection)
		if err != nil {
			return err
		}
		ts = kind == "timeseries"
	}
	if ts {
		return &lacksError{fmt.Sprintf("watcher %s: %s is a time-series collection, and the server opens no change stream on one: remove the watcher, or watch a plain collection", w.Name, w.Target())}
	}
	return nil
}

// postImageTargets are the namespaces whose changes w's streams deliver.
func postImageTargets(plan *workload.Plan, w *workload.Watcher) []string {
	if w.Collection != "" {
		return []string{w.Target()}
	}
	var out []string
	for _, col := range plan.AllCollections() {
		if col.Database == w.Database {
			out = append(out, col.Namespace())
		}
	}
	return out
}

// lacksPostImages says why ns will have no post-images during the run
// ("" when it will): created by the run (or recreated by --drop) without
// them, absent, or with changeStreamPreAndPostImages off.
func (cl *Client) lacksPostImages(ctx context.Context, plan *workload.Plan, ns string, drop bool) (string, error) {
	ours := false
	for _, col := range plan.AllCollections() {
		ours = ours || col.Namespace() == ns
	}
	if ours && drop {
		return "is recreated by --drop without them", nil
	}
	db, coll, _ := strings.Cut(ns, ".") // a database name holds no dot
	specs, err := cl.c.Database(db).ListCollectionSpecifications(ctx, bson.D{{Key: "name", Value: coll}})
	if err != nil {
		return "", fmt.Errorf("list collections of %s: %w", db, err)
	}
	if len(specs) == 0 && ours {
		return "is created by this run without them", nil
	}
	if len(specs) == 0 {
		return "does not exist", nil
	}
	on, _ := specs[0].Options.Lookup("changeStreamPreAndPostImages", "enabled").BooleanOK()
	if !on {
		return "does not record them (changeStreamPreAndPostImages is off)", nil
	}
	return "", nil
}
