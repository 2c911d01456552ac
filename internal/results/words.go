package results

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The words of the results' notes. Renderers use the same ones, so a count
// or a duration reads the same in a note and in a table.

// Thousands formats n with comma separators: 1234567 -> "1,234,567".
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Rate formats a per-second figure with separators and one decimal.
func Rate(f float64) string {
	whole := fmt.Sprintf("%.1f", f)
	i := strings.IndexByte(whole, '.')
	n, _ := strconv.ParseInt(whole[:i], 10, 64)
	return Thousands(n) + whole[i:]
}

// Target formats a configured rate: whole numbers without decimals.
func Target(f float64) string {
	if f == math.Trunc(f) {
		return Thousands(int64(f))
	}
	return Rate(f)
}

// ShortDuration formats d without zero minutes and seconds: 1h, 1h30m, 90s.
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Plural formats a count with the right form of its noun: 1 latency, 2
// latencies.
func Plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(n) + " " + many
}

// Round3 rounds to three decimals: a microsecond for milliseconds, a
// millisecond for seconds. Finer digits would be noise the histogram's three
// significant digits do not support.
func Round3(f float64) float64 { return math.Round(f*1000) / 1000 }
