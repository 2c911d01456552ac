package source

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// A mongod log line is relaxed extended JSON. The driver's reader
// (bson.UnmarshalExtJSON) builds a token per value and runs at about
// 15 MB/s on one core; a log of a week is tens of gigabytes. fastExtJSON
// converts a line to BSON in one pass with no allocation beyond the
// output, for the forms mongod writes ($date, $numberLong, $numberInt,
// $numberDouble, $numberDecimal, $oid); any other extended-JSON wrapper,
// and anything it does not read exactly as the driver does, answers
// errSlowPath and the line goes to the driver (extjson_test.go holds the
// two to the same bytes over the real logs).

var errSlowPath = errors.New("extended JSON the fast reader leaves to the driver")

// parseLine is a log line as BSON, fast when it can be.
func parseLine(dst, line []byte) ([]byte, error) {
	return parseLineOnly(dst, line, nil)
}

// parseLineOnly is parseLine converting only the fields named where it
// can (the driver's path converts all).
func parseLineOnly(dst, line []byte, only fields) ([]byte, error) {
	if out, err := fastExtJSONOnly(dst, line, only); err == nil {
		return out, nil
	}
	var d bson.Raw
	if err := bson.UnmarshalExtJSON(line, false, &d); err != nil {
		return dst, err
	}
	return append(dst, d...), nil
}

// fastExtJSON appends the document line holds to dst.
func fastExtJSON(dst, line []byte) ([]byte, error) {
	return fastExtJSONOnly(dst, line, nil)
}

// fields names the fields of a document to convert, and for each the
// fields of its own document value (nil: all); the others are skipped
// unread (a slow query's locks, storage and flow control are half its
// line, and capture reads none of them).
type fields map[string]fields

// fastExtJSONOnly is fastExtJSON keeping only the fields named (nil:
// all).
func fastExtJSONOnly(dst, line []byte, only fields) ([]byte, error) {
	p := jsonReader{b: line}
	p.space()
	if p.peek() != '{' {
		return dst, errSlowPath
	}
	if key, ok := p.firstKey(); ok && isWrapper(key) {
		return dst, errSlowPath
	}
	out, err := p.document(dst, only)
	if err != nil {
		return dst, errSlowPath
	}
	if p.space(); p.i != len(p.b) {
		return dst, errSlowPath
	}
	return out, nil
}

type jsonReader struct {
	b []byte
	i int
}

func (p *jsonReader) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonReader) peek() byte {
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

func (p *jsonReader) expect(c byte) bool {
	p.space()
	if p.peek() != c {
		return false
	}
	p.i++
	return true
}

// firstKey is the first key of the object at p.i, without moving on; a
// key with escapes is not read (ok false), which sends a wrapper-looking
// object down the driver's path only if it is one.
func (p *jsonReader) firstKey() (string, bool) {
	j := p.i + 1
	for j < len(p.b) && (p.b[j] == ' ' || p.b[j] == '\t' || p.b[j] == '\n' || p.b[j] == '\r') {
		j++
	}
	if j >= len(p.b) || p.b[j] != '"' {
		return "", false
	}
	k := j + 1
	for k < len(p.b) && p.b[k] != '"' && p.b[k] != '\\' {
		k++
	}
	if k >= len(p.b) || p.b[k] != '"' {
		return "", false
	}
	return string(p.b[j+1 : k]), true
}

var errJSON = errors.New("bad JSON")

// document appends the object at p.i as a BSON document, with only the
// fields named (nil: all).
func (p *jsonReader) document(dst []byte, only fields) ([]byte, error) {
	if !p.expect('{') {
		return dst, errJSON
	}
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	p.space()
	if p.peek() == '}' {
		p.i++
	} else {
		for {
			p.space()
			typeAt := len(dst)
			dst = append(dst, 0)
			var err error
			if dst, err = p.cstring(dst); err != nil {
				return dst, err
			}
			if !p.expect(':') {
				return dst, errJSON
			}
			var sub fields
			if only != nil {
				var keep bool
				if sub, keep = only[string(dst[typeAt+1:len(dst)-1])]; !keep {
					dst = dst[:typeAt]
					if err := p.skip(); err != nil {
						return dst, err
					}
					goto next
				}
			}
			{
				var t bson.Type
				if dst, t, err = p.value(dst, sub); err != nil {
					return dst, err
				}
				dst[typeAt] = byte(t)
			}
		next:
			p.space()
			if p.peek() == ',' {
				p.i++
				continue
			}
			if !p.expect('}') {
				return dst, errJSON
			}
			break
		}
	}
	dst = append(dst, 0)
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start))
	return dst, nil
}

// array appends the array at p.i as a BSON array.
func (p *jsonReader) array(dst []byte) ([]byte, error) {
	p.i++ // [
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	p.space()
	if p.peek() == ']' {
		p.i++
	} else {
		for n := 0; ; n++ {
			typeAt := len(dst)
			dst = append(dst, 0)
			dst = strconv.AppendInt(dst, int64(n), 10)
			dst = append(dst, 0)
			p.space()
			var t bson.Type
			var err error
			if dst, t, err = p.value(dst, nil); err != nil {
				return dst, err
			}
			dst[typeAt] = byte(t)
			p.space()
			if p.peek() == ',' {
				p.i++
				continue
			}
			if !p.expect(']') {
				return dst, errJSON
			}
			break
		}
	}
	dst = append(dst, 0)
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start))
	return dst, nil
}

// value appends the value at p.i and says its type; only names the
// fields of a document to keep (nil: all).
func (p *jsonReader) value(dst []byte, only fields) ([]byte, bson.Type, error) {
	p.space()
	switch c := p.peek(); {
	case c == '{':
		if key, ok := p.firstKey(); ok && isWrapper(key) {
			return p.wrapper(dst, key)
		}
		out, err := p.document(dst, only)
		return out, bson.TypeEmbeddedDocument, err
	case c == '[':
		out, err := p.array(dst)
		return out, bson.TypeArray, err
	case c == '"':
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		dst, err := p.str(dst)
		if err != nil {
			return dst, 0, err
		}
		dst = append(dst, 0)
		binary.LittleEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
		return dst, bson.TypeString, nil
	case c == 't' && p.word("true"):
		return append(dst, 1), bson.TypeBoolean, nil
	case c == 'f' && p.word("false"):
		return append(dst, 0), bson.TypeBoolean, nil
	case c == 'n' && p.word("null"):
		return dst, bson.TypeNull, nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number(dst)
	}
	return dst, 0, errJSON
}

// skip passes over the value at p.i: strings are passed by their quotes
// (escapes included), containers by their brackets.
func (p *jsonReader) skip() error {
	p.space()
	depth := 0
	for p.i < len(p.b) {
		switch c := p.b[p.i]; c {
		case '"':
			p.i++
			for p.i < len(p.b) && p.b[p.i] != '"' {
				if p.b[p.i] == '\\' {
					p.i++
				}
				p.i++
			}
			p.i++
		case '{', '[':
			depth++
			p.i++
		case '}', ']':
			if depth == 0 {
				return nil // the end of the enclosing container
			}
			depth--
			p.i++
		case ',':
			if depth == 0 {
				return nil
			}
			p.i++
		default:
			p.i++
		}
	}
	if depth != 0 {
		return errJSON
	}
	return nil
}

func (p *jsonReader) word(w string) bool {
	if len(p.b)-p.i >= len(w) && string(p.b[p.i:p.i+len(w)]) == w {
		p.i += len(w)
		return true
	}
	return false
}

// number reads a JSON number as the driver does: an integer is int32
// when it fits, else int64; a fraction or an exponent makes a double.
func (p *jsonReader) number(dst []byte) ([]byte, bson.Type, error) {
	start, double := p.i, false
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c >= '0' && c <= '9' || c == '-' || c == '+' {
			p.i++
		} else if c == '.' || c == 'e' || c == 'E' {
			double = true
			p.i++
		} else {
			break
		}
	}
	text := string(p.b[start:p.i])
	if double {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return dst, 0, errSlowPath
		}
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(f)), bson.TypeDouble, nil
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return dst, 0, errSlowPath
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return binary.LittleEndian.AppendUint64(dst, uint64(v)), bson.TypeInt64, nil
	}
	return binary.LittleEndian.AppendUint32(dst, uint32(int32(v))), bson.TypeInt32, nil
}
