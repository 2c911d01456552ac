package results

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
)

// ReadFile reads a results, sweep, findmax or A/B file, gzip-compressed or
// not: a history store's entry (internal/history) is the file its command
// wrote, compressed, and report and compare read it as it is.
func ReadFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: a damaged gzip file: %w", path, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: a damaged gzip file: %w", path, err)
	}
	return out, nil
}
