package loader

import (
	"reflect"
	"testing"
)

func TestRangesAdd(t *testing.T) {
	tests := []struct {
		name string
		in   Ranges
		add  Range
		want Ranges
	}{
		// Adding to nothing gives the range itself.
		{"into empty", nil, Range{0, 10}, Ranges{{0, 10}}},
		// An empty range changes nothing.
		{"empty range", Ranges{{0, 10}}, Range{5, 5}, Ranges{{0, 10}}},
		// Touching ranges merge, so the set stays compact.
		{"adjacent after", Ranges{{0, 10}}, Range{10, 20}, Ranges{{0, 20}}},
		{"adjacent before", Ranges{{10, 20}}, Range{0, 10}, Ranges{{0, 20}}},
		// A gap keeps two ranges, in order.
		{"disjoint before", Ranges{{20, 30}}, Range{0, 10}, Ranges{{0, 10}, {20, 30}}},
		{"disjoint after", Ranges{{0, 10}}, Range{20, 30}, Ranges{{0, 10}, {20, 30}}},
		// Filling the gap between two ranges joins all three.
		{"fills gap", Ranges{{0, 10}, {20, 30}}, Range{10, 20}, Ranges{{0, 30}}},
		// Overlapping several swallows them.
		{"spans many", Ranges{{0, 5}, {10, 15}, {20, 25}, {40, 50}}, Range{3, 22}, Ranges{{0, 25}, {40, 50}}},
		// A range inside another changes nothing.
		{"inside", Ranges{{0, 100}}, Range{10, 20}, Ranges{{0, 100}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append(Ranges(nil), tt.in...)
			got := in.Add(tt.add)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("%v + %v = %v, want %v", tt.in, tt.add, got, tt.want)
			}
			if !got.Valid() {
				t.Fatalf("%v is not canonical", got)
			}
			if !reflect.DeepEqual(in, tt.in) && len(tt.in) > 0 {
				t.Fatalf("Add changed its receiver: %v", in)
			}
		})
	}
}

func TestRangesGaps(t *testing.T) {
	tests := []struct {
		name   string
		rs     Ranges
		within Range
		want   Ranges
	}{
		// Nothing done: the whole range is a gap.
		{"none done", nil, Range{0, 10}, Ranges{{0, 10}}},
		// Everything done: no gap.
		{"all done", Ranges{{0, 10}}, Range{0, 10}, nil},
		// Out-of-order completions leave holes between ranges.
		{"holes", Ranges{{0, 3}, {5, 7}}, Range{0, 10}, Ranges{{3, 5}, {7, 10}}},
		// Ranges outside the window do not count.
		{"window", Ranges{{0, 100}}, Range{100, 200}, Ranges{{100, 200}}},
		// A range straddling the window's start.
		{"straddle", Ranges{{0, 50}}, Range{40, 60}, Ranges{{50, 60}}},
		// An empty window has no gap.
		{"empty window", nil, Range{5, 5}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rs.Gaps(tt.within); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("gaps of %v in %v = %v, want %v", tt.rs, tt.within, got, tt.want)
			}
		})
	}
}

// TestNormalizeRepairs: a record edited by hand or written by an older
// version is put back into canonical form before it is trusted.
func TestNormalizeRepairs(t *testing.T) {
	got := Normalize([]Range{{20, 30}, {0, 10}, {5, 12}, {12, 12}, {29, 40}})
	want := Ranges{{0, 12}, {20, 40}}
	if !reflect.DeepEqual(got, want) || got.Len() != 32 {
		t.Fatalf("Normalize = %v (%d keys), want %v", got, got.Len(), want)
	}
}

func TestPartRange(t *testing.T) {
	tests := []struct {
		name         string
		base, target int64
		parts        int
		want         []Range
	}{
		// One part takes everything.
		{"single", 10, 110, 1, []Range{{10, 110}}},
		// An even split.
		{"even", 0, 9, 3, []Range{{0, 3}, {3, 6}, {6, 9}}},
		// The first parts take the remainder, one key each.
		{"remainder", 0, 11, 3, []Range{{0, 4}, {4, 8}, {8, 11}}},
		// More parts than keys: some parts are empty.
		{"tiny", 5, 7, 3, []Range{{5, 6}, {6, 7}, {7, 7}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Record{Base: tt.base, Target: tt.target, Partitions: tt.parts}
			var all Ranges
			for i := range tt.parts {
				got := r.PartRange(i)
				if got != tt.want[i] {
					t.Errorf("part %d: %v, want %v", i, got, tt.want[i])
				}
				all = all.Add(got)
			}
			if tt.target > tt.base && !reflect.DeepEqual(all, Ranges{{tt.base, tt.target}}) {
				t.Errorf("parts cover %v, want exactly [%d, %d)", all, tt.base, tt.target)
			}
		})
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"50GB", 50e9, true},        // decimal units, as dataSize is reported
		{"1.5 TiB", 3 << 39, true},  // binary units and a space
		{"800mb", 800e6, true},      // case does not matter
		{"1024", 1024, true},        // bare bytes
		{"10G", 10e9, true},         // short unit
		{"1_000KB", 1e6, true},      // digit separators
		{"", 0, false},              // empty
		{"GB", 0, false},            // no number
		{"-5GB", 0, false},          // negative
		{"5 parsecs", 0, false},     // unknown unit
		{"99999999999TB", 0, false}, // beyond int64
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
