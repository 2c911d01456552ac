package source

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonstring.go: the fast reader's strings (extjson.go): keys, values and
// their escapes, decoded as the driver decodes them.

// plainString reads a string without escapes.
func (p *jsonReader) plainString() (string, error) {
	if p.peek() != '"' {
		return "", errJSON
	}
	j := p.i + 1
	for j < len(p.b) && p.b[j] != '"' && p.b[j] != '\\' {
		j++
	}
	if j >= len(p.b) || p.b[j] != '"' {
		return "", errSlowPath
	}
	s := string(p.b[p.i+1 : j])
	p.i = j + 1
	return s, nil
}

// cstring appends a key: a BSON key holds no NUL.
func (p *jsonReader) cstring(dst []byte) ([]byte, error) {
	start := len(dst)
	dst, err := p.str(dst)
	if err != nil {
		return dst, err
	}
	for _, c := range dst[start:] {
		if c == 0 {
			return dst, errSlowPath
		}
	}
	return append(dst, 0), nil
}

// str appends the string at p.i, unescaped, without its terminator.
func (p *jsonReader) str(dst []byte) ([]byte, error) {
	if p.peek() != '"' {
		return dst, errJSON
	}
	p.i++
	ascii := true
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if !ascii && !utf8.Valid(dst) {
				return dst, errSlowPath
			}
			return dst, nil
		case c < 0x20:
			return dst, errSlowPath
		case c >= 0x80:
			ascii = false
			dst = append(dst, c)
			p.i++
		case c != '\\':
			// Copy the run up to the next quote, escape or special byte.
			j := p.i
			for j < len(p.b) && p.b[j] >= 0x20 && p.b[j] < 0x80 && p.b[j] != '"' && p.b[j] != '\\' {
				j++
			}
			dst = append(dst, p.b[p.i:j]...)
			p.i = j
		default:
			if p.i+1 >= len(p.b) {
				return dst, errJSON
			}
			e := p.b[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				dst = append(dst, e)
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return dst, errSlowPath
				}
				if utf16.IsSurrogate(r) {
					if p.i+1 >= len(p.b) || p.b[p.i] != '\\' || p.b[p.i+1] != 'u' {
						return dst, errSlowPath
					}
					p.i += 2
					r2, ok := p.hex4()
					if !ok {
						return dst, errSlowPath
					}
					if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
						return dst, errSlowPath
					}
				}
				dst = utf8.AppendRune(dst, r)
			default:
				return dst, errSlowPath
			}
		}
	}
	return dst, errJSON
}

func (p *jsonReader) hex4() (rune, bool) {
	if p.i+4 > len(p.b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.b[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(v), true
}
