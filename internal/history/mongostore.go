package history

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// A MongoDB store keeps one document per result in Database.Collection:
// the entry's identity and its metrics flattened, for queries
// ({"metrics.p99_read": {$gt: 5}}), and the whole result beside them.
const (
	Database   = "mongoload_history"
	Collection = "results"
)

// collection is what the store needs of MongoDB (mongodb.HistoryCollection).
type collection interface {
	EnsureIndexes(ctx context.Context, keys [][]string) error
	InsertJSON(ctx context.Context, doc []byte, dates ...string) error
	FindJSON(ctx context.Context, filter []byte, sortKey string) ([][]byte, error)
	Close()
}

// indexes serve the queries the history and its users make: a workload's
// series over time, a label, a time range.
var indexes = [][]string{{"workload", "time"}, {"label"}, {"time"}}

type mongoStore struct {
	c   collection
	uri string
}

func openMongo(ctx context.Context, uri string) (Store, error) {
	c, err := mongodb.OpenHistory(ctx, uri, Database, Collection)
	if err != nil {
		return nil, fmt.Errorf("history store %s: %w", Redact(uri), err)
	}
	return &mongoStore{c: c, uri: uri}, nil
}

func (s *mongoStore) Close() { s.c.Close() }

// mongoDoc is an entry as its document, the result whole beside it.
type mongoDoc struct {
	Entry
	Result json.RawMessage `json:"result"`
}

func (s *mongoStore) Append(ctx context.Context, e Entry) error {
	if err := s.c.EnsureIndexes(ctx, indexes); err != nil {
		return fmt.Errorf("history store %s: indexes: %w", Redact(s.uri), err)
	}
	b, err := json.Marshal(mongoDoc{Entry: e, Result: e.Doc})
	if err != nil {
		return err
	}
	if err := s.c.InsertJSON(ctx, b, "time"); err != nil {
		return fmt.Errorf("history store %s: %w", Redact(s.uri), err)
	}
	return nil
}

func (s *mongoStore) Entries(ctx context.Context, q Query) ([]Entry, error) {
	filter := map[string]any{}
	if q.Workload != "" {
		filter["workload"] = q.Workload
	}
	if !q.Since.IsZero() {
		filter["time"] = map[string]any{"$gte": extDate(q.Since)}
	}
	fb, _ := json.Marshal(filter)
	docs, err := s.c.FindJSON(ctx, fb, "time")
	if err != nil {
		return nil, fmt.Errorf("history store %s: %w", Redact(s.uri), err)
	}
	var out []Entry
	for _, d := range docs {
		var m struct {
			ID     any             `json:"_id"`
			Host   string          `json:"host"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(d, &m); err != nil || len(m.Result) == 0 {
			return nil, fmt.Errorf("%w: %s.%s holds a document without its result: a store's collection holds only what --history wrote", ErrNotStore, Database, Collection)
		}
		e, err := NewEntry(m.Result, m.Host)
		if err != nil {
			return nil, fmt.Errorf("%s.%s %v: %w", Database, Collection, m.ID, err)
		}
		if q.selects(e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// extDate is t as extended JSON's date.
func extDate(t time.Time) map[string]string {
	return map[string]string{"$date": t.UTC().Format(time.RFC3339Nano)}
}
