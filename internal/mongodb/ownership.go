package mongodb

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/dbcommand"
	"github.com/mongoload/mongoload/internal/workload"
)

// The ownership rule, in one place: mongoload writes into, indexes and
// shards only collections it created (marked in MetaCollection), unless the
// user said otherwise. Everything that changes a collection asks here:
// the operations' writes, seeding and loading (SetupOptions.Fill), index
// creation and sharding. A collection mongoload did not create:
//   - is written to (operations, seeding, loading) only with
//     --allow-existing;
//   - is never sharded, not even with --allow-existing: sharding cannot be
//     undone, and writing is all that flag allows;
//   - gets no mongoload_meta beside it, unless the user allowed writes.
//
// Indexes belong to whoever made the collection as it is: setup builds the
// workload's indexes only on a collection it creates in this run, never on
// one that existed before (mongoload's own from an earlier run included:
// an index dropped there was dropped by someone), unless the user asks in
// words (--create-indexes); it never drops or alters one. It says which of
// the workload's indexes such a collection lacks (missingNotice).
//
// A replay's DDL (a drop, a rename, an index built or dropped: only with
// --replay-ddl, Collection.AlteredBy) touches only a collection mongoload
// created: on any other it is refused, --allow-existing or not, but an
// index build with --create-indexes. Nothing is created, written or
// altered in a namespace of the server's own (dbcommand.Reserved: admin,
// local, config, system collections, $cmd), whatever the flags; reading
// one that exists is allowed. What a command does to which namespace is
// internal/dbcommand's reading; this rule decides over it.
//
// Sharding and index creation also need setup enabled (SetupOptions.Create).

// ownership is what the rule decided for one collection.
type ownership struct {
	ours     bool // mongoload created it (or the user said --drop, and it was recreated)
	writable bool // the run may write into it and keep key counts beside it
	index    bool // setup may create its indexes (a new collection, or --create-indexes)
	shard    bool // setup may shard it
}

// decideOwnership applies the rule to col (exists: before this run); fill says why seeding or
// loading would insert into it ("" when neither will). It fails with
// ErrNotOurs, naming the writer and the fix, when the run would write to
// a collection it may not.
func decideOwnership(col *workload.Collection, ours, exists bool, o SetupOptions, fill string) (ownership, error) {
	if why := dbcommand.Reserved(col.Namespace()); why != "" {
		return reserved(col, exists, why, fill)
	}
	d := ownership{ours: ours, writable: ours || o.AllowExisting}
	d.index = o.Create && !o.SkipIndexes && (!exists || o.CreateIndexes || o.OwnIndexes && ours)
	d.shard = o.Create && ours
	if col.AlteredBy != "" && exists && !ours && !(col.IndexBuildsOnly && o.CreateIndexes) {
		if col.IndexBuildsOnly {
			return d, fmt.Errorf("%w: %s existed before and %s: mongoload builds an index on a collection it did not create only with --create-indexes (or leave the trace's DDL unsent: without --replay-ddl)", ErrNotOurs, col.Namespace(), col.AlteredBy)
		}
		return d, fmt.Errorf("%w: %s existed before and %s: mongoload never drops, renames or alters a collection it did not create, nor its indexes, --allow-existing or not: leave the trace's DDL unsent (without --replay-ddl: it is counted), or replay into a copy whose collections mongoload created", ErrNotOurs, col.Namespace(), col.AlteredBy)
	}
	if d.writable {
		return d, nil
	}
	var why string
	switch {
	case col.WrittenBy != "" && fill == "":
		why = col.WrittenBy
	case col.Writes && fill != "":
		why = "this workload writes to it and " + fill
	case col.Writes:
		why = "this workload writes to it"
	case fill != "":
		why = fill
	default:
		return d, nil // reads only: allowed
	}
	// The hint never suggests --drop: this collection is someone else's
	// (issue 30: a captured workload run against its source).
	return d, fmt.Errorf("%w: %s existed before and %s; mongoload writes only to collections it created: point the workload at a database of its own, or at a test deployment (--allow-existing writes into this one anyway: only for data you can lose)", ErrNotOurs, col.Namespace(), why)
}

// reserved decides for a namespace of the server's own: read when it
// exists, nothing else.
func reserved(col *workload.Collection, exists bool, why, fill string) (ownership, error) {
	var what string
	switch {
	case !exists:
		what = "setup would create it"
	case col.AlteredBy != "":
		what = col.AlteredBy
	case col.WrittenBy != "":
		what = col.WrittenBy
	case col.Writes:
		what = "this workload writes to it"
	case fill != "":
		what = fill
	default:
		return ownership{}, nil // reads only
	}
	return ownership{}, fmt.Errorf("%w: %s is %s, and %s: mongoload creates nothing there, and writes into or alters nothing there, whatever the flags", ErrNotOurs, col.Namespace(), why, what)
}

// rights are what setup decided for one namespace of this client's runs,
// for the steps after it: SaveKeys leaves the collections it may not
// write alone, a load's indexes-after builds only where it may index.
type rights struct{ writable, index bool }

func (cl *Client) setRights(ns string, r rights) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.owned == nil {
		cl.owned = map[string]rights{}
	}
	cl.owned[ns] = r
}

// MayIndex reports whether setup may build the indexes of ns (it created
// the collection, or was asked to); a namespace setup never saw may.
func (cl *Client) MayIndex(ns string) bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	r, known := cl.owned[ns]
	return r.index || !known
}

func (cl *Client) isOwned(ns string) bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.owned[ns].writable
}

// Server error codes matched by number, never by message text.
const (
	codeAlreadyInitialized = 23 // enableSharding/shardCollection: already done
	codeUnauthorized       = 13 // the command needs an authenticated user
	codeAuthFailed         = 18 // AuthenticationFailed
	codeNamespaceExists    = 48 // create: the collection exists (another process of the run made it)
)

// hasCode reports whether err is a server error with one of codes.
func hasCode(err error, codes ...int) bool {
	_, c, ok := serverCode(err)
	for _, want := range codes {
		if ok && c == want {
			return true
		}
	}
	return false
}
