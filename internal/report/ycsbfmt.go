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

// decimal2 formats f as Java's DecimalFormat("#.##") does in YCSB's status
// lines: at most two decimals, rounded half to even, no trailing zeros, and
// no integer digit when it would be a lone 0 (".5"); zero is "0".
func decimal2(f float64) string {
	s := strconv.FormatFloat(f, 'f', 2, 64) // exact ties round to even, as HALF_EVEN
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	switch {
	case s == "0" || s == "-0" || s == "":
		return "0"
	case strings.HasPrefix(s, "0."):
		return s[1:]
	case strings.HasPrefix(s, "-0."):
		return "-" + s[2:]
	}
	return s
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

// remaining formats seconds left as YCSB's RemainingFormatter does, its
// quirks included ("1 minute ", "2 hours 5 minutes ", "9 second ").
func remaining(seconds int64) string {
	var b strings.Builder
	unit := func(n int64, one, many string) {
		b.WriteString(strconv.FormatInt(n, 10))
		if n == 1 {
			b.WriteString(one)
		} else {
			b.WriteString(many)
		}
	}
	days := seconds / 86400
	if days > 0 {
		unit(days, " day ", " days ")
		seconds -= days * 86400
	}
	if hours := seconds / 3600; hours > 0 {
		unit(hours, " hour ", " hours ")
		seconds -= hours * 3600
	}
	if days < 1 {
		if minutes := seconds / 60; minutes > 0 {
			unit(minutes, " minute ", " minutes ")
		}
	}
	if b.Len() == 0 {
		// YCSB tests the length of the text so far, the number itself:
		// one digit reads "second", more read "seconds".
		n := strconv.FormatInt(seconds, 10)
		b.WriteString(n)
		if len(n) == 1 {
			b.WriteString(" second ")
		} else {
			b.WriteString(" seconds ")
		}
	}
	return b.String()
}
