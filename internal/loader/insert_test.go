package loader

import (
	"bytes"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

func TestParseWriteConcern(t *testing.T) {
	tests := []struct {
		in      string
		wantW   string
		wantErr bool
	}{
		{"", "", false},                 // the connection's own
		{"1", "1", false},               // acknowledged by the primary
		{"majority", "majority", false}, // a tag
		{"3", "3", false},               // a number of members
		{"0", "", true},                 // unacknowledged: cannot be resumed
		{"-1", "", true},                // nonsense
	}
	for _, tt := range tests {
		wc, err := ParseWriteConcern(tt.in)
		if (err != nil) != tt.wantErr || (wc != nil && wc.W != tt.wantW) {
			t.Errorf("ParseWriteConcern(%q) = %+v, %v", tt.in, wc, err)
		}
	}
}

// TestServerLine: a duplicate's message is its first line, at most 200
// bytes and an ellipsis, as the driver package cut it before the move.
func TestServerLine(t *testing.T) {
	long := strings.Repeat("k", 250)
	tests := []struct{ in, want string }{
		{"E11000 duplicate key", "E11000 duplicate key"},
		{"E11000 duplicate key\nmore", "E11000 duplicate key"},
		{long, long[:200] + "..."},
		{long[:200], long[:200]},
	}
	for _, tt := range tests {
		if got := serverLine(tt.in); got != tt.want {
			t.Errorf("serverLine(%.20q...) = %.20q... (%d bytes), want %d bytes", tt.in, got, len(got), len(tt.want))
		}
	}
}

// TestInsertCommand decodes the commands a batch becomes: every document
// once, in order, split only where the next would pass maxCommand, each
// command unordered and with the load's write concern.
func TestInsertCommand(t *testing.T) {
	wc := bsoncore.AppendDocumentElement(nil, "writeConcern", bsoncore.NewDocumentBuilder().AppendString("w", "majority").Build())
	ins := &CommandInserter{wc: wc}
	doc := func(k, size int) []byte {
		b, _ := bson.Marshal(bson.D{{Key: "_id", Value: k}, {Key: "pad", Value: strings.Repeat("x", size)}})
		return b
	}
	tests := []struct {
		name string
		n    int // documents
		size int // bytes of padding each
	}{
		{"one", 1, 10},
		{"small batch", 1000, 100},
		{"past the limit", 40, 1 << 20},
		{"one document over the limit", 2, 17 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var docs [][]byte
			for k := range tt.n {
				docs = append(docs, doc(k, tt.size))
			}
			next := 0
			for rest := docs; len(rest) > 0; {
				cmd, n := ins.command(nil, "c", rest)
				raw := bson.Raw(cmd)
				if err := raw.Validate(); err != nil {
					t.Fatal(err)
				}
				if n < 1 || n > len(rest) {
					t.Fatalf("%d documents in a command, %d left", n, len(rest))
				}
				if n > 1 && len(cmd) > maxCommand {
					t.Errorf("%d documents make %d bytes, over %d", n, len(cmd), maxCommand)
				}
				if n < len(rest) && len(cmd)+len(rest[n]) <= maxCommand-32 {
					t.Errorf("split after %d documents (%d bytes) although document %d (%d bytes) fits", n, len(cmd), next+n, len(rest[n]))
				}
				vals, err := raw.Lookup("documents").Array().Values()
				if err != nil || len(vals) != n {
					t.Fatalf("documents array: %d values, %v; want %d", len(vals), err, n)
				}
				for i, v := range vals {
					if !bytes.Equal(v.Document(), docs[next+i]) {
						t.Fatalf("document %d of the command is not document %d of the batch", i, next+i)
					}
				}
				if raw.Lookup("insert").StringValue() != "c" || raw.Lookup("ordered").Boolean() || raw.Lookup("writeConcern", "w").StringValue() != "majority" {
					t.Errorf("command %s", raw.String()[:min(200, len(raw.String()))])
				}
				next += n
				rest = rest[n:]
			}
			if next != tt.n {
				t.Fatalf("%d documents sent, want %d", next, tt.n)
			}
		})
	}
}
