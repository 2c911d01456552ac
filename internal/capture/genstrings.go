package capture

import (
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

// strings writes an email, a pattern when every value has the same shape
// (SKU-04211), or random characters of the lengths and alphabet seen.
func (f *Field) strings(o genOptions) config.Value {
	if looksLikeEmail(f.strs) {
		return gen("email")
	}
	// A pattern's constant characters are shared by every value: by
	// kAnonymous distinct ones at least, or they would spell a few names.
	if p, ok := pattern(f.strs); ok && (o.keepValues || !f.fewValues()) {
		return gen("pattern", param("pattern", p))
	}
	return gen("string", param("min", int64(f.minLen)), param("max", int64(f.maxLen)), param("charset", charset(f.strs)))
}

func looksLikeEmail(ss []string) bool {
	if len(ss) == 0 {
		return false
	}
	for _, s := range ss {
		at := strings.IndexByte(s, '@')
		if at < 1 || !strings.Contains(s[at:], ".") {
			return false
		}
	}
	return true
}

// pattern infers a pattern generator's text: every sampled string of one
// length, each position a constant, a digit, an uppercase letter or a
// letter or digit.
func pattern(ss []string) (string, bool) {
	if len(ss) < 8 || len(ss[0]) == 0 || len(ss[0]) > 64 {
		return "", false
	}
	n := len(ss[0])
	var sb strings.Builder
	varying := 0
	for i := 0; i < n; i++ {
		c0, same, digit, upper, alnum := ss[0][i], true, true, true, true
		for _, s := range ss {
			if len(s) != n || s[i] >= 0x80 {
				return "", false
			}
			c := s[i]
			same = same && c == c0
			digit = digit && c >= '0' && c <= '9'
			upper = upper && c >= 'A' && c <= 'Z'
			alnum = alnum && (c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z')
		}
		switch {
		case same:
			if strings.IndexByte(`#?*\`, c0) >= 0 {
				sb.WriteByte('\\')
			}
			sb.WriteByte(c0)
		case digit:
			sb.WriteByte('#')
			varying++
		case upper:
			sb.WriteByte('?')
			varying++
		case alnum:
			sb.WriteByte('*')
			varying++
		default:
			return "", false
		}
	}
	if varying == 0 {
		return "", false
	}
	return zeroPadded(sb.String()), true
}

// zeroPadded widens a run of digits to the constant digits before it:
// SKU-000### in a sample of the first thousand ids is SKU-###### (a
// zero-padded number), not a constant 000.
func zeroPadded(p string) string {
	b := []byte(p)
	for i := len(b) - 1; i > 0; i-- {
		if b[i] == '#' && b[i-1] >= '0' && b[i-1] <= '9' && (i < 2 || b[i-2] != '\\') {
			b[i-1] = '#'
		}
	}
	return string(b)
}

// charset names the smallest built-in alphabet that holds every sample.
func charset(ss []string) string {
	digit, lower, upper, hex, other := true, true, true, true, false
	for _, s := range ss {
		for _, c := range s {
			isD, isL, isU := c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z'
			digit = digit && isD
			lower = lower && isL
			upper = upper && isU
			hex = hex && (isD || c >= 'a' && c <= 'f')
			other = other || !isD && !isL && !isU
		}
	}
	switch {
	case len(ss) == 0 || other:
		return "alphanumeric"
	case digit:
		return "numeric"
	case hex:
		return "hex"
	case lower:
		return "lower"
	case upper:
		return "upper"
	}
	return "alphanumeric"
}
