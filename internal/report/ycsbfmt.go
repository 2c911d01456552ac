package report

import (
	"math"
	"strconv"
	"strings"
)

// javaDouble formats f as Java's Double.toString does, which YCSB's text
// exporter uses: the shortest decimal that reads back as f, in plain
// notation with at least one decimal from 10^-3 to 10^7 ("312.96067415730334",
// "4138.0"), in computerized scientific notation outside ("1.0E7").
func javaDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(f); a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // 1.2345e+07
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

// ordinal names a percentile as YCSB's exporter does: "50th", "1st",
// "99.9" (fractions as Java writes the double).
func ordinal(p float64) string {
	if p != math.Trunc(p) {
		return javaDouble(p)
	}
	j := int64(p)
	switch j % 100 {
	case 11, 12, 13:
		return strconv.FormatInt(j, 10) + "th"
	}
	return strconv.FormatInt(j, 10) + [...]string{"th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"}[j%10]
}
