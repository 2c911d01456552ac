package report

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/results"
)

// rateWhole formats a per-second figure with separators, rounded to a whole
// number, for the live line.
func rateWhole(f float64) string {
	return results.Thousands(int64(f + 0.5))
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
