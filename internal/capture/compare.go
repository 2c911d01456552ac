package capture

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Captured is what a capture file says of one shape: the comment lines
// "shape: ..." and "captured: share=... returned=... executions=..." above
// its operation.
type Captured struct {
	Shape      string
	Share      float64
	Returned   float64
	Executions float64
}

// ReadCaptured reads the shapes a capture file recorded, by shape key.
func ReadCaptured(path string) (map[string]Captured, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]Captured{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	shape := ""
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "# shape: "):
			shape = strings.TrimPrefix(line, "# shape: ")
		case strings.HasPrefix(line, "# captured: ") && shape != "":
			c := Captured{Shape: shape}
			for _, kv := range strings.Fields(strings.TrimPrefix(line, "# captured: ")) {
				k, v, _ := strings.Cut(kv, "=")
				x, _ := strconv.ParseFloat(v, 64)
				switch k {
				case "share":
					c.Share = x
				case "returned":
					c.Returned = x
				case "executions":
					c.Executions = x
				}
			}
			out[shape], shape = c, ""
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no captured shape in it (is it a file 'mongoload capture' wrote without --redact-names?)", path)
	}
	return out, nil
}

// Compare prints the replay's shapes, shares and documents returned per
// shape beside the source's, and returns the largest difference in share
// (in points) and the shapes whose mean documents returned are off by more
// than a factor of two.
func Compare(out io.Writer, source, replay map[string]Captured) (worstShare float64, offReturned []string) {
	keys := make([]string, 0, len(source)+len(replay))
	for k := range source {
		keys = append(keys, k)
	}
	for k := range replay {
		if _, ok := source[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmpFloat(source[b].Share+replay[b].Share/1e3, source[a].Share+replay[a].Share/1e3)
	})
	fmt.Fprintf(out, "%8s %8s %7s %10s %10s  %s\n", "source", "replay", "Δ pts", "returned", "replay", "shape")
	for _, k := range keys {
		s, r := source[k], replay[k]
		d := (r.Share - s.Share) * 100
		worstShare = math.Max(worstShare, math.Abs(d))
		mark := ""
		if s.Executions > 0 && r.Executions > 0 && (r.Returned > 2*s.Returned+0.5 || r.Returned < s.Returned/2-0.5) {
			offReturned = append(offReturned, k)
			mark = "  <- documents returned differ"
		}
		fmt.Fprintf(out, "%7.1f%% %7.1f%% %+7.1f %10.2f %10.2f  %s%s\n", s.Share*100, r.Share*100, d, s.Returned, r.Returned, k, mark)
	}
	return worstShare, offReturned
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
