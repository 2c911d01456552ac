package loader

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/workload"
)

// sizeUnits are the units ParseSize knows: decimal (KB = 1000 bytes, as
// disks and the server's dataSize are counted) and binary (KiB = 1024).
var sizeUnits = map[string]float64{
	"": 1, "b": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
	"k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12,
}

// ParseSize reads a data size such as "50GB", "1.5 TiB" or "800MB".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' && r != '_' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(num, "_", ""), 64)
	mult, ok := sizeUnits[unit]
	if err != nil || !ok || f <= 0 || math.IsInf(f*mult, 0) || f*mult >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is not a size: write a positive number and a unit such as 800MB, 50GB or 2TiB", s)
	}
	return int64(f * mult), nil
}

// AverageSize is the average BSON size of col's documents, measured on n
// of them made the way a load makes them (keys 0 to n-1).
func AverageSize(col *workload.Collection, seed uint64, n int) float64 {
	if n < 1 {
		n = 1
	}
	st := generate.NewState(seed, 7)
	var buf []byte
	var total int
	for k := range n {
		st.BeginDocument(col.Keys, int64(k), seed, 0)
		buf = col.Doc.Append(buf[:0], st)
		total += len(buf)
		if _, err := bson.Raw(buf).LookupErr("_id"); err != nil {
			total += 17 // the load derives one (see generate.PrependID)
		}
	}
	return float64(total) / float64(n)
}

// DocumentsForSize is how many documents of col make size bytes of BSON,
// rounded up, and the average document size it assumed.
func DocumentsForSize(col *workload.Collection, seed uint64, size int64) (int64, float64) {
	avg := AverageSize(col, seed, 2000)
	return int64(math.Ceil(float64(size) / avg)), avg
}
