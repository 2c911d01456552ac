package report

import (
	"fmt"
)

// msFixed formats milliseconds to the microsecond: 1.234.
func msFixed(f float64) string { return fmt.Sprintf("%.3f", f) }

// seconds formats a number of seconds: 60.0s.
func seconds(f float64) string { return fmt.Sprintf("%.1fs", f) }
