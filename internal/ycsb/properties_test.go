package ycsb

import (
	"strings"
	"testing"
)

// TestParse protects the property file format YCSB reads (Java's
// Properties.load): every way of writing an entry, and later entries
// overriding earlier ones.
func TestParse(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want map[string]string
		line map[string]int // where each key was last set, when checked
	}{
		// the common form, with the file's comments and blank lines
		{"key=value", "# comment\n\nrecordcount=1000\n! also a comment\n", map[string]string{"recordcount": "1000"}, map[string]int{"recordcount": 3}},
		// blanks around the separator, and a colon separator
		{"separators", "a = 1\nb:2\nc : 3\n", map[string]string{"a": "1", "b": "2", "c": "3"}, nil},
		// a blank alone separates too
		{"blank separator", "threadcount 8\n", map[string]string{"threadcount": "8"}, nil},
		// leading blanks are not part of the key; trailing blanks are trimmed
		{"indented", "   recordcount=10   \n", map[string]string{"recordcount": "10"}, nil},
		// a key with no value
		{"empty value", "table=\nx\n", map[string]string{"table": "", "x": ""}, nil},
		// a later entry overrides an earlier one, and keeps the later line
		{"override", "a=1\nb=2\na=3\n", map[string]string{"a": "3", "b": "2"}, map[string]int{"a": 3}},
		// a backslash continues the line; the continuation's indent is dropped
		{"continuation", "hdrhistogram.percentiles=50,\\\n    95,99\nnext=1\n", map[string]string{"hdrhistogram.percentiles": "50,95,99", "next": "1"}, map[string]int{"next": 3}},
		// an escaped backslash at the end does not continue the line
		{"escaped backslash", "path=c:\\\\\nnext=1\n", map[string]string{"path": `c:\`, "next": "1"}, nil},
		// escapes in keys and values
		{"escapes", "my\\ key=a\\tb\\u0041\\=\n", map[string]string{"my key": "a\tbA="}, nil},
		// a value may hold separators
		{"separators in value", "mongodb.url=mongodb://h:27017/ycsb?w=1\n", map[string]string{"mongodb.url": "mongodb://h:27017/ycsb?w=1"}, nil},
		// Windows and old Mac line ends
		{"line ends", "a=1\r\nb=2\rc=3", map[string]string{"a": "1", "b": "2", "c": "3"}, map[string]int{"c": 3}},
		// a comment line ending in a backslash does not continue
		{"comment backslash", "# note \\\na=1\n", map[string]string{"a": "1"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := NewProperties()
			if err := ps.Parse([]byte(tt.src), "w"); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, p := range ps.All() {
				got[p.Key] = p.Value
			}
			if len(got) != len(tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			for k, line := range tt.line {
				if p, _ := ps.Get(k); p.Line != line {
					t.Errorf("%s set at line %d, want %d", k, p.Line, line)
				}
			}
		})
	}
}

// TestParseErrors: a malformed escape is located at its line.
func TestParseErrors(t *testing.T) {
	err := NewProperties().Parse([]byte("a=1\nb=\\u00zz\n"), "workloadx")
	if err == nil || !strings.HasPrefix(err.Error(), "workloadx:2: malformed \\uXXXX escape") {
		t.Fatalf("got %v, want workloadx:2: malformed \\uXXXX escape", err)
	}
}

// TestSetArg protects -p: "key=value" overrides the files, anything else
// is a one-line error saying how to write it.
func TestSetArg(t *testing.T) {
	ps := NewProperties()
	_ = ps.Parse([]byte("recordcount=1000\n"), "w")
	if err := ps.SetArg("recordcount=5000"); err != nil {
		t.Fatal(err)
	}
	if p, _ := ps.Get("recordcount"); p.Value != "5000" || p.File != "-p" {
		t.Errorf("recordcount = %q from %s, want 5000 from -p", p.Value, p.File)
	}
	if err := ps.SetArg("recordcount"); err == nil || !strings.Contains(err.Error(), "write -p name=value") {
		t.Errorf("SetArg without = gave %v", err)
	}
}
