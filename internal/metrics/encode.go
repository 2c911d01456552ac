package metrics

import (
	"errors"
	"fmt"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// EncodeHistogram returns h in HdrHistogram's V2 compressed encoding, base64
// encoded: the form HdrHistogram's Java and C tools read, and the form
// results files carry so runs of several processes can be merged by adding
// histograms.
func EncodeHistogram(h *hdrhistogram.Histogram) (string, error) {
	if h == nil {
		return "", errors.New("encode histogram: nil histogram")
	}
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encode histogram: %w", err)
	}
	return string(b), nil
}

// DecodeHistogram decodes what EncodeHistogram (or any V2 compressed
// HdrHistogram writer) produced. A histogram with another geometry than
// NewHistogram's decodes too; adding it to a mongoload histogram then maps
// each value to the nearest bucket, so check the geometry before merging if
// exactness matters.
func DecodeHistogram(s string) (*hdrhistogram.Histogram, error) {
	if s == "" {
		return nil, errors.New("decode histogram: empty string")
	}
	h, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	return h, nil
}

// SameGeometry reports whether h has NewHistogram's geometry, so that adding
// it to mongoload histograms is exact.
func SameGeometry(h *hdrhistogram.Histogram) bool {
	return h.LowestTrackableValue() == LowestMicros &&
		h.HighestTrackableValue() == HighestMicros &&
		h.SignificantFigures() == SigFigs
}
