package loader

import "testing"

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
