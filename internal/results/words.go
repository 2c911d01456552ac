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

// Whole formats a per-second figure with separators, rounded to a whole
// number: 8,412.
func Whole(f float64) string { return Thousands(int64(f + 0.5)) }

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

// Rounded rounds d for people: 850ms, 42s, 8m20s, 2h05m.
func Rounded(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	case d < time.Hour:
		return d.Round(time.Second).String()
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// Bytes formats a size in binary units: 256 MB, 1.5 GB.
func Bytes(n int64) string {
	f := float64(n)
	switch {
	case f >= 1<<40:
		return Decimal1(f/(1<<40)) + " TB"
	case f >= 1<<30:
		return Decimal1(f/(1<<30)) + " GB"
	case f >= 1<<20:
		return Decimal1(f/(1<<20)) + " MB"
	case f >= 1<<10:
		return Decimal1(f/(1<<10)) + " KB"
	}
	return strconv.FormatInt(n, 10) + " B"
}

// Decimal1 formats f with one decimal, none when it is whole: 1.5, 2.
func Decimal1(f float64) string {
	s := strconv.FormatFloat(math.Round(f*10)/10, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0")
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
