package plgm

import (
	"math"
	"strconv"
	"time"

	"github.com/mongoload/mongoload/internal/config"
)

// gen is the generator call {$gen: name, k1: v1, ...}; params alternate
// keys (strings) and values (scalars or config.Values).
func gen(name string, params ...any) config.Value {
	v := config.Value{Kind: config.KindGen, Gen: name}
	for i := 0; i+1 < len(params); i += 2 {
		v.Fields = append(v.Fields, config.Field{Key: params[i].(string), Value: lit(params[i+1])})
	}
	return v
}

// lit is a literal value (a config.Value is returned as is).
func lit(x any) config.Value {
	switch t := x.(type) {
	case config.Value:
		return t
	case int:
		return config.Value{Kind: config.KindScalar, Scalar: int64(t)}
	case nil:
		return config.Value{Kind: config.KindNull}
	}
	return config.Value{Kind: config.KindScalar, Scalar: x}
}

// doc is a document of the given fields, in order.
func doc(fields ...config.Field) config.Value {
	return config.Value{Kind: config.KindDoc, Fields: fields}
}

func field(key string, v config.Value) config.Field { return config.Field{Key: key, Value: v} }

func array(items ...config.Value) config.Value {
	return config.Value{Kind: config.KindArray, Items: items}
}

// fromJSON converts a JSON value into a literal template value, keeping
// key order; each string is passed to str, which may turn it into a
// generator (placeholders).
func fromJSON(n *node, str func(s string, path string, line int) config.Value, path string) config.Value {
	switch n.kind {
	case jsonNull:
		return config.Value{Kind: config.KindNull, Line: n.line}
	case jsonBool:
		return config.Value{Kind: config.KindScalar, Scalar: n.b, Line: n.line}
	case jsonNumber:
		return config.Value{Kind: config.KindScalar, Scalar: number(n.num.String()), Line: n.line}
	case jsonString:
		if str != nil {
			v := str(n.str, path, n.line)
			v.Line = n.line
			return v
		}
		return config.Value{Kind: config.KindScalar, Scalar: n.str, Line: n.line}
	case jsonArray:
		v := config.Value{Kind: config.KindArray, Line: n.line, Items: []config.Value{}}
		for _, it := range n.items {
			v.Items = append(v.Items, fromJSON(it, str, path))
		}
		return v
	}
	v := config.Value{Kind: config.KindDoc, Line: n.line, Fields: []config.Field{}}
	for _, m := range n.fields {
		p := path
		if len(m.key) == 0 || m.key[0] != '$' {
			// Operators ($gt, $in, $set) keep the path of their field;
			// field names extend it, as in plgm's placeholder lookup.
			if p != "" {
				p += "."
			}
			p += m.key
		}
		v.Fields = append(v.Fields, config.Field{Key: m.key, Value: fromJSON(m.val, str, p)})
	}
	return v
}

// number is a JSON number as an int64 when it is a whole number that
// fits, else a float64.
func number(s string) any {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i
	}
	f, _ := strconv.ParseFloat(s, 64)
	if math.IsInf(f, 0) {
		return s
	}
	return f
}

// lastYear is plgm's date range: a date within the year before now.
func lastYear(now time.Time) config.Value {
	to := now.UTC().Truncate(24 * time.Hour)
	return gen("date", "from", to.AddDate(-1, 0, 0), "to", to)
}
