package mongodb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/workload"
)

// streamAwait is how long one getMore of a change stream waits for
// events: short, so that a stream notices the end of the run (and a
// drained stream says so) within it.
const streamAwait = 100 * time.Millisecond

// Stream is one change stream of a watcher. It resumes itself after an
// error from the last event's resume token (the driver's own single retry
// aside), so that no event is lost or delivered twice, and counts each
// resume. Not safe for concurrent use: one goroutine reads one stream.
type Stream struct {
	cl      *Client
	w       *workload.Watcher
	cs      *mongo.ChangeStream
	token   bson.Raw
	resumes int64
	// failures counts the errors since the last event or empty wait.
	failures int
}

// ErrUnsupported means the server lacks what the workload declares: a
// time-series collection (before MongoDB 5.0), change streams (a
// standalone server has no oplog to read them from).
var ErrUnsupported = errors.New("the server does not support what the workload declares")

// lacksError is a one-line message that is an ErrUnsupported.
type lacksError struct{ msg string }

func (e *lacksError) Error() string        { return e.msg }
func (e *lacksError) Is(target error) bool { return target == ErrUnsupported }

// CheckChangeStreams refuses, before a run, a server that cannot serve the
// workload's watchers: change streams need a replica set or a sharded
// cluster's mongos; a standalone server refuses them. A watcher of a
// time-series collection, or one that requires post-images the run's
// collections will not have, is refused too (watchtargets.go). drop: setup will drop and recreate the workload's
// collections.
func (cl *Client) CheckChangeStreams(ctx context.Context, plan *workload.Plan, drop bool) error {
	h, err := cl.Hello(ctx)
	if err != nil {
		return fmt.Errorf("ask the server for its topology: %w", err)
	}
	if h["setName"] == nil && h["msg"] != "isdbgrid" {
		return &lacksError{fmt.Sprintf("watchers: %s is a standalone server, and change streams need a replica set (a one-member replica set will do) or a sharded cluster; remove watchers: from the workload to run it here", cl.Hosts)}
	}
	return cl.checkWatchTargets(ctx, plan, drop)
}

// OpenStream opens one change stream of w, starting now.
func (cl *Client) OpenStream(ctx context.Context, w *workload.Watcher) (*Stream, error) {
	s := &Stream{cl: cl, w: w}
	if err := s.open(ctx); err != nil {
		return nil, fmt.Errorf("watcher %s: open a change stream on %s: %s", w.Name, w.Target(), oneLine(err))
	}
	return s, nil
}

func (s *Stream) open(ctx context.Context) error {
	o := options.ChangeStream().SetMaxAwaitTime(streamAwait)
	if s.w.FullDocument != "" {
		o.SetFullDocument(options.FullDocument(s.w.FullDocument))
	}
	if s.token != nil {
		o.SetResumeAfter(s.token)
	}
	pipeline := []bson.Raw{}
	if s.w.Pipeline != nil {
		vals, err := bson.Raw(s.w.Pipeline).Values()
		if err != nil {
			return err
		}
		for _, v := range vals {
			pipeline = append(pipeline, v.Document())
		}
	}
	db := s.cl.c.Database(s.w.Database)
	var err error
	if s.w.Collection == "" {
		s.cs, err = db.Watch(ctx, pipeline, o)
	} else {
		s.cs, err = db.Collection(s.w.Collection).Watch(ctx, pipeline, o)
	}
	return err
}

// Next returns the next event, or ok false when one wait for events
// (streamAwait) ended without any: the stream has delivered everything
// the server had for it. After an error it reopens the stream from the
// last resume token, counting the resume, until it opens or ctx ends
// (then it returns ctx's error). An error no resume can get past (the
// server refuses the event itself, or the history it would resume from
// is gone: cannotResume) is returned, in one line naming the watcher.
func (s *Stream) Next(ctx context.Context) (ev workload.ChangeEvent, ok bool, err error) {
	for {
		if s.cs == nil {
			if ctx.Err() != nil {
				return ev, false, ctx.Err()
			}
			if err := s.open(ctx); err != nil {
				if cannotResume(err) {
					return ev, false, s.failed(err)
				}
				s.pause(ctx) // the server is away: try again shortly, not in a hot loop
				continue
			}
		}
		if s.cs.TryNext(ctx) {
			s.token = s.cs.ResumeToken()
			s.failures = 0
			return s.event(s.cs.Current), true, nil
		}
		if s.cs.Err() == nil {
			s.token = s.cs.ResumeToken() // the post-batch token: resume past what the server has scanned
			s.failures = 0
			return ev, false, nil
		}
		failure := s.cs.Err()
		_ = s.cs.Close(context.WithoutCancel(ctx))
		s.cs = nil
		if ctx.Err() != nil {
			continue
		}
		if cannotResume(failure) {
			return ev, false, s.failed(failure)
		}
		s.resumes++
		if s.failures++; s.failures > 1 {
			s.pause(ctx) // failing again before any event: not in a hot loop either
		}
	}
}

// pause waits before the next reopen: 50 ms, longer (to 400 ms) while
// the failures go on without an event between them.
func (s *Stream) pause(ctx context.Context) {
	select {
	case <-time.After(min(50*time.Millisecond<<min(s.failures, 3), 400*time.Millisecond)):
	case <-ctx.Done():
	}
}

// failed is the error that ended the stream, in one line; a
// fullDocument: required stream whose event has no post-image says how
// to fix it.
func (s *Stream) failed(err error) error {
	hint := ""
	if s.w.FullDocument == "required" && hasCode(err, codeNoMatchingDocument) {
		hint = "; fullDocument: required needs the collection's post-images (changeStreamPreAndPostImages), which mongoload never turns on: use fullDocument: updateLookup or whenAvailable"
	}
	return fmt.Errorf("watcher %s: its change stream on %s failed with an error no resume can get past: %s%s", s.w.Name, s.w.Target(), oneLine(err), hint)
}

// event reads the commit time and the lag field of a change event.
func (s *Stream) event(doc bson.Raw) workload.ChangeEvent {
	var ev workload.ChangeEvent
	if wt, ok := doc.Lookup("wallTime").DateTimeOK(); ok {
		ev.Commit = time.UnixMilli(wt)
	} else if t, _, ok := doc.Lookup("clusterTime").TimestampOK(); ok {
		ev.Commit = time.Unix(int64(t), 0)
	}
	if s.w.LagField != "" {
		if ms, ok := doc.Lookup("fullDocument", s.w.LagField).DateTimeOK(); ok {
			ev.Field = time.UnixMilli(ms)
		}
	}
	return ev
}

// Resumes is how many times the stream was reopened after an error.
func (s *Stream) Resumes() int64 { return s.resumes }

// Close closes the stream.
func (s *Stream) Close(ctx context.Context) {
	if s.cs != nil {
		_ = s.cs.Close(ctx)
		s.cs = nil
	}
}
