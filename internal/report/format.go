package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Thousands formats n with comma separators: 1234567 -> "1,234,567".
func Thousands(n int64) string { return thousands(n) }

// thousands formats n with comma separators: 1234567 -> "1,234,567".
func thousands(n int64) string {
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

// rate formats a per-second figure with separators and one decimal.
func rate(f float64) string {
	whole := fmt.Sprintf("%.1f", f)
	i := strings.IndexByte(whole, '.')
	n, _ := strconv.ParseInt(whole[:i], 10, 64)
	return thousands(n) + whole[i:]
}

// rateWhole formats a per-second figure with separators, rounded to a whole
// number, for the live line.
func rateWhole(f float64) string {
	return thousands(int64(f + 0.5))
}

// msFixed formats milliseconds to the microsecond: 1.234.
func msFixed(f float64) string { return fmt.Sprintf("%.3f", f) }

// msShort formats milliseconds with about three significant digits and a
// unit, for the live line: 0.41ms, 2.31ms, 40.1ms, 512ms, 1.23s.
func msShort(f float64) string {
	switch {
	case f < 10:
		return fmt.Sprintf("%.2fms", f)
	case f < 100:
		return fmt.Sprintf("%.1fms", f)
	case f < 1000:
		return fmt.Sprintf("%.0fms", f)
	default:
		return fmt.Sprintf("%.2fs", f/1000)
	}
}

// seconds formats a number of seconds: 60.0s.
func seconds(f float64) string { return fmt.Sprintf("%.1fs", f) }

// target formats a configured rate: whole numbers without decimals.
func target(f float64) string {
	if f == math.Trunc(f) {
		return thousands(int64(f))
	}
	return rate(f)
}

// shortDuration formats d without zero minutes and seconds: 1h, 1h30m, 90s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// plural formats a count with the right form of its noun: 1 latency, 2
// latencies.
func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(n) + " " + many
}
