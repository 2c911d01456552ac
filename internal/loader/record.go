package loader

import (
	"errors"
	"fmt"
	"time"
)

// Record is the durable state of one load of a collection, which a Store
// keeps on the server (in the meta collection) so that an interrupted load
// can be resumed, and so that N processes can fill one collection
// together, each its own part.
//
// The load fills keys [Base, Target). Part i of Partitions fills its own
// contiguous share of that range (PartRange) and records, in its
// PartState, which keys it has written and how far it has handed keys out.
type Record struct {
	// Generation identifies this load: a later load of the collection
	// replaces the record, and writes meant for an older one fail.
	Generation int64
	Base       int64 // keys [0, Base) existed before the load
	Target     int64 // the collection holds keys [0, Target) once it is done
	Partitions int
	// Seed and Epoch make the documents: resuming with the same ones
	// writes the same documents, whatever the command line says.
	Seed     uint64
	Epoch    uint32
	Created  time.Time
	Parts    map[int]PartState
	Finished bool
}

// PartState is what one part of a load has done.
type PartState struct {
	// Lease: keys of the part below it may have been handed to a worker
	// (and be partly written); keys at or above it never were. Redoing
	// the former tolerates documents already there; the latter must not
	// meet any.
	Lease int64
	// Done are the keys written and acknowledged.
	Done     Ranges
	Finished bool
	Updated  time.Time
}

// PartRange is the keys part i fills: [Base, Target) cut into Partitions
// contiguous shares, the first (Target-Base)%Partitions one key longer.
func (r *Record) PartRange(i int) Range {
	n, p := r.Target-r.Base, int64(r.Partitions)
	if n <= 0 || p < 1 {
		return Range{r.Base, r.Base}
	}
	share, extra := n/p, n%p
	from := r.Base + int64(i)*share + min(int64(i), extra)
	to := from + share
	if int64(i) < extra {
		to++
	}
	return Range{from, to}
}

// AllFinished reports whether every part has finished.
func (r *Record) AllFinished() bool {
	for i := 0; i < r.Partitions; i++ {
		if !r.Parts[i].Finished {
			return false
		}
	}
	return true
}

// Written is the number of keys of the load recorded as written.
func (r *Record) Written() int64 {
	var n int64
	for i, ps := range r.Parts {
		pr := r.PartRange(i)
		for _, d := range ps.Done {
			n += Range{max(d.From, pr.From), min(d.To, pr.To)}.Len()
		}
	}
	return n
}

// work is what part i still has to do: keys to redo (handed out before,
// perhaps partly written) and fresh keys (never handed out).
func (r *Record) work(i int) (redo, fresh Ranges) {
	pr := r.PartRange(i)
	ps, started := r.Parts[i]
	lease := pr.From
	if started {
		lease = min(max(ps.Lease, pr.From), pr.To)
	}
	redo = ps.Done.Gaps(Range{pr.From, lease})
	fresh = ps.Done.Gaps(Range{lease, pr.To})
	return redo, fresh
}

// ErrConflict means a load cannot start as asked because of the state a
// previous load left: the message says how to go on.
var ErrConflict = errors.New("load state conflict")

// UnfinishedError is the ErrConflict of a load asked for while another,
// unfinished, holds the collection: a caller other than mongoload load
// (seeding) words the fix in its own flags from these fields.
type UnfinishedError struct {
	Namespace  string
	Target     int64 // the unfinished load's target
	Partitions int
	Holds      int64 // documents the collection holds of it
	msg        string
}

func (e *UnfinishedError) Error() string        { return e.msg }
func (e *UnfinishedError) Is(target error) bool { return target == ErrConflict }

// action is what a load does given the record it finds.
type action uint8

const (
	actNothing  action = iota // the collection already holds the target
	actCreate                 // start a new load (a new record)
	actJoin                   // take a part of an unfinished load nobody started
	actResume                 // continue a started part
	actPartDone               // this part is finished; others may not be
)

// request is what the command line asked for one collection.
type request struct {
	ns          string
	base        int64 // the collection's key count now
	target      int64 // 0: the unfinished load's own target (resume only)
	part, parts int
	resume      bool
}

// decide picks the action for req given the collection's record (nil when
// none). It refuses, with a message naming the fix, to mix a new load with
// an unfinished one, or to redo a started part without --resume.
func decide(rec *Record, req request) (action, error) {
	partFlag := ""
	if req.parts > 1 {
		partFlag = fmt.Sprintf(" --partition %d/%d", req.part, req.parts)
	}
	if rec == nil || rec.Finished || rec.AllFinished() {
		if req.target == 0 && rec != nil {
			return actNothing, nil // resuming a load that is over
		}
		if req.target == 0 {
			return 0, fmt.Errorf("%w: %s: there is no unfinished load to resume: say how many documents to load with --documents or --size", ErrConflict, req.ns)
		}
		if req.base >= req.target {
			return actNothing, nil
		}
		return actCreate, nil
	}
	if (req.target != 0 && req.target != rec.Target) || req.parts != rec.Partitions {
		how := fmt.Sprintf("--documents %d", rec.Target)
		if rec.Partitions > 1 {
			how += fmt.Sprintf(" --partition i/%d (each i from 0 to %d)", rec.Partitions, rec.Partitions-1)
		}
		return 0, &UnfinishedError{Namespace: req.ns, Target: rec.Target, Partitions: rec.Partitions, Holds: rec.Base + rec.Written(),
			msg: fmt.Sprintf("%s: %s: an unfinished load to %d documents in %d partition(s), started %s, holds %d of them: finish it with %s --resume, or start over with --drop",
				ErrConflict, req.ns, rec.Target, rec.Partitions, rec.Created.Format(time.RFC3339), rec.Base+rec.Written(), how)}
	}
	ps, started := rec.Parts[req.part]
	switch {
	case !started:
		return actJoin, nil
	case ps.Finished:
		return actPartDone, nil
	case !req.resume:
		pr := rec.PartRange(req.part)
		what := "the load"
		if rec.Partitions > 1 {
			what = fmt.Sprintf("partition %d/%d of the load", req.part, rec.Partitions)
		}
		return 0, fmt.Errorf("%w: %s: %s to %d documents was interrupted after %d of its %d documents: pass --resume%s to continue it, or --drop to start over",
			ErrConflict, req.ns, what, rec.Target, ps.Done.Len(), pr.Len(), partFlag)
	}
	return actResume, nil
}
