package metrics

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// TestEncodeDecodeRoundTrip protects merging of results files: a decoded
// histogram must equal the encoded one bucket for bucket.
func TestEncodeDecodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	full := NewHistogram()
	for range 50_000 {
		v, _ := micros(randomLatency(rng))
		_ = full.RecordValue(v)
	}
	_ = full.RecordValue(HighestMicros)

	tests := []struct {
		name string
		h    func() *hdrhistogram.Histogram
	}{
		{"empty", func() *hdrhistogram.Histogram { return NewHistogram() }}, // encodes to a valid, empty histogram
		{"heavy tail", func() *hdrhistogram.Histogram { return full }},      // many buckets, incl. the highest value
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.h()
			s, err := EncodeHistogram(h)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeHistogram(s)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equals(h) || !SameGeometry(got) {
				t.Errorf("round trip changed the histogram")
			}
			if got.ValueAtQuantile(99) != h.ValueAtQuantile(99) {
				t.Errorf("p99 %d, want %d", got.ValueAtQuantile(99), h.ValueAtQuantile(99))
			}
		})
	}
}

// TestDecodeErrors protects readers of damaged results files: errors, not
// panics or empty histograms.
func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "empty"},                       // a missing field
		{"not base64", "!!!", "decode histogram"},    // hand-edited file
		{"truncated", "HISTFAA", "decode histogram"}, // cut short
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeHistogram(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
	if _, err := EncodeHistogram(nil); err == nil {
		t.Error("EncodeHistogram(nil) succeeded")
	}
}
