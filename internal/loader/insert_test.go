package loader

import (
	"strings"
	"testing"
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
