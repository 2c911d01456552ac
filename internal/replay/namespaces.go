package replay

import (
	"context"
	"fmt"
	"io"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/run"
)

// checkNamespaces names, before the first send, each collection of the
// trace that the target does not have.
func (t *Trace) checkNamespaces(ctx context.Context, log io.Writer, cfg *config.Config) error {
	cl, err := run.Connect(ctx, log, cfg, mongodb.ConnectOptions{})
	if err != nil {
		return err
	}
	defer cl.Close()
	for _, ns := range t.Namespaces {
		if ns.Reads == 0 && ns.Writes == 0 {
			continue // only DDL names it: the command itself creates, renames into or drops it
		}
		db, coll, _ := strings.Cut(ns.NS, ".")
		reply, err := cl.Command(ctx, db, bson.D{{Key: "listCollections", Value: 1}, {Key: "filter", Value: bson.D{{Key: "name", Value: coll}}}, {Key: "nameOnly", Value: true}})
		if err != nil {
			return &run.Error{Kind: run.ServerFailure, Err: fmt.Errorf("list the collections of %s: %w", db, err)}
		}
		if first, _ := reply.Lookup("cursor", "firstBatch").ArrayOK(); len(first) > 5 { // an empty array is 5 bytes
			continue
		}
		what := fmt.Sprintf("replay: %s is not on the target: its %d read(s) will find nothing", ns.NS, ns.Reads)
		if ns.Writes > 0 {
			what += fmt.Sprintf(", and setup creates it (as mongoload's) for its %d write(s)", ns.Writes)
		}
		fmt.Fprintln(log, what+"; load the target with the source's data first to replay like for like")
	}
	return nil
}
