package generate

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// The BSON types with no generator of their own are the deprecated ones:
// undefined (0x06), DBPointer (0x0C), symbol (0x0E) and JavaScript code
// with scope (0x0F). The server only keeps them for old data, current
// drivers do not create them, and $where no longer accepts code with scope
// (MongoDB 4.4), so a load test has no use for them.

// timestampGen makes BSON timestamps: the second now stands for, and an
// increment that counts up (State.appendTimestamp).
type timestampGen struct{}

// Append implements Generator.
func (timestampGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	return bson.TypeTimestamp, st.appendTimestamp(dst)
}

// buildTimestamp: timestamp, a BSON timestamp (the replication clock type;
// for dates use date or now).
func buildTimestamp(p *params) (Generator, error) { return p.done(timestampGen{}) }

// buildRegex: regex {pattern, options}, a constant BSON regular expression.
// Options are letters of "ilmsux"; BSON wants them sorted, so they are.
func buildRegex(p *params) (Generator, error) {
	pattern, options := p.str("pattern", ""), p.str("options", "")
	if _, ok := p.get("pattern"); !ok {
		p.fail(0, "pattern is required")
	}
	if strings.IndexByte(pattern, 0) >= 0 {
		p.fail(0, "pattern contains a NUL byte, which BSON regular expressions cannot hold")
	}
	opts := []byte(options)
	for _, o := range opts {
		if strings.IndexByte("ilmsux", o) < 0 {
			p.fail(0, "option %q is not one of i, l, m, s, u, x", o)
		}
	}
	slices.Sort(opts)
	opts = slices.Compact(opts)
	if p.err != nil {
		return p.done(nil)
	}
	return p.done(&literal{t: bson.TypeRegex, b: bsoncore.AppendRegex(nil, pattern, string(opts))})
}

// buildMinKey: minKey, the BSON value that sorts before all others.
func buildMinKey(p *params) (Generator, error) { return p.done(&literal{t: bson.TypeMinKey}) }

// buildMaxKey: maxKey, the BSON value that sorts after all others.
func buildMaxKey(p *params) (Generator, error) { return p.done(&literal{t: bson.TypeMaxKey}) }

// buildJavaScript: javascript {code}, constant BSON JavaScript code.
func buildJavaScript(p *params) (Generator, error) {
	code := p.str("code", "")
	if _, ok := p.get("code"); !ok {
		p.fail(0, "code is required")
	}
	return p.done(&literal{t: bson.TypeJavaScript, b: appendString(nil, code)})
}
