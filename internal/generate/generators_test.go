package generate

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestGenerators protects the contract of every generator: each value has
// the promised BSON type and lies within the generator's parameters.
func TestGenerators(t *testing.T) {
	day := func(s string) int64 { tm, _ := time.Parse("2006-01-02", s); return tm.UnixMilli() }
	strLen := func(lo, hi int) func(*testing.T, bson.RawValue) {
		return func(t *testing.T, v bson.RawValue) {
			if n := utf8.RuneCountInString(v.StringValue()); n < lo || n > hi {
				t.Errorf("length %d of %q not in [%d, %d]", n, v.StringValue(), lo, hi)
			}
		}
	}
	matches := func(re string) func(*testing.T, bson.RawValue) {
		rx := regexp.MustCompile("^(?:" + re + ")$")
		return func(t *testing.T, v bson.RawValue) {
			if !rx.MatchString(v.StringValue()) {
				t.Errorf("%q does not match %s", v.StringValue(), re)
			}
		}
	}
	tests := []struct {
		name  string
		src   string
		typ   bson.Type
		check func(*testing.T, bson.RawValue) // nil: the type is all there is to check
	}{
		// a fresh ObjectId each time
		{"objectId", `{$gen: objectId}`, bson.TypeObjectID, func(t *testing.T, v bson.RawValue) {
			if v.ObjectID().IsZero() {
				t.Error("zero ObjectId")
			}
		}},
		// int stays within [min, max], both ends included
		{"int", `{$gen: int, min: -3, max: 3}`, bson.TypeInt32, func(t *testing.T, v bson.RawValue) {
			if i := v.Int32(); i < -3 || i > 3 {
				t.Errorf("%d not in [-3, 3]", i)
			}
		}},
		// int with min = max is that number
		{"int fixed", `{$gen: int, min: 7, max: 7}`, bson.TypeInt32, func(t *testing.T, v bson.RawValue) {
			if v.Int32() != 7 {
				t.Errorf("got %d, want 7", v.Int32())
			}
		}},
		// long covers values beyond int32
		{"long", `{$gen: long, min: 5000000000, max: 5000000010}`, bson.TypeInt64, func(t *testing.T, v bson.RawValue) {
			if i := v.Int64(); i < 5000000000 || i > 5000000010 {
				t.Errorf("%d out of range", i)
			}
		}},
		// long over the whole int64 range does not overflow its span
		{"long full range", `{$gen: long, min: -9223372036854775808, max: 9223372036854775807}`, bson.TypeInt64, nil},
		// double lies in [min, max] and is rounded to decimals
		{"double", `{$gen: double, min: 1.5, max: 2.5, decimals: 2}`, bson.TypeDouble, func(t *testing.T, v bson.RawValue) {
			f := v.Double()
			if f < 1.5 || f > 2.5 {
				t.Errorf("%v not in [1.5, 2.5]", f)
			}
			if math.Abs(f*100-math.Round(f*100)) > 1e-9 {
				t.Errorf("%v has more than 2 decimals", f)
			}
		}},
		// decimal lies in [min, max] with the given scale
		{"decimal", `{$gen: decimal, min: -10, max: 10, scale: 3}`, bson.TypeDecimal128, func(t *testing.T, v bson.RawValue) {
			d := v.Decimal128()
			bi, exp, err := d.BigInt()
			if err != nil || exp != -3 {
				t.Fatalf("%v: exp %d, err %v", d, exp, err)
			}
			if c := bi.Int64(); c < -10000 || c > 10000 {
				t.Errorf("%v out of [-10, 10]", d)
			}
		}},
		// decimal is built from its parts: sign, exponent and coefficient
		{"decimal fixed", `{$gen: decimal, min: -1.25, max: -1.25, scale: 2}`, bson.TypeDecimal128, func(t *testing.T, v bson.RawValue) {
			if s := v.Decimal128().String(); s != "-1.25" {
				t.Errorf("got %s, want -1.25", s)
			}
		}},
		// bool with probability 1 is always true
		{"bool", `{$gen: bool, probability: 1}`, bson.TypeBoolean, func(t *testing.T, v bson.RawValue) {
			if !v.Boolean() {
				t.Error("false with probability 1")
			}
		}},
		// date lies in [from, to], written as YAML dates or strings
		{"date", `{$gen: date, from: 2024-01-01, to: "2024-01-31"}`, bson.TypeDateTime, func(t *testing.T, v bson.RawValue) {
			if ms := v.DateTime(); ms < day("2024-01-01") || ms > day("2024-01-31") {
				t.Errorf("%v out of January", v.Time())
			}
		}},
		// now is close to the current time
		{"now", `{$gen: now}`, bson.TypeDateTime, func(t *testing.T, v bson.RawValue) {
			if d := time.Since(v.Time()); d < -time.Second || d > time.Minute {
				t.Errorf("now is %v away", d)
			}
		}},
		// string with a length range and the default charset
		{"string", `{$gen: string, min: 3, max: 6}`, bson.TypeString, func(t *testing.T, v bson.RawValue) {
			strLen(3, 6)(t, v)
			matches(`[A-Za-z0-9]*`)(t, v)
		}},
		// a lone bound pulls the other default along: max 3 under the default length 10
		{"string max only", `{$gen: string, max: 3}`, bson.TypeString, strLen(3, 3)},
		// a lone min does the same for numbers
		{"double min only", `{$gen: double, min: 5}`, bson.TypeDouble, func(t *testing.T, v bson.RawValue) {
			if v.Double() != 5 {
				t.Errorf("got %v, want 5", v.Double())
			}
		}},
		// string with a named charset and an exact length
		{"string hex", `{$gen: string, length: 8, charset: hex}`, bson.TypeString, matches(`[0-9a-f]{8}`)},
		// string with its own, non-ASCII characters
		{"string runes", `{$gen: string, length: 5, charset: "äöü"}`, bson.TypeString, matches(`[äöü]{5}`)},
		// pattern placeholders and escapes; brackets are literal
		{"pattern", `{$gen: pattern, pattern: 'TCK-##?*\#[A-F]'}`, bson.TypeString, matches(`TCK-[0-9]{2}[A-Z][A-Za-z0-9]#\[A-F\]`)},
		// pattern without placeholders is a constant
		{"pattern constant", `{$gen: pattern, pattern: 'A\*B'}`, bson.TypeString, matches(`A\*B`)},
		// realistic values come from pools: a full name has a space inside
		{"name", `{$gen: name}`, bson.TypeString, matches(`\S.* .*\S`)},
		// a first name
		{"firstName", `{$gen: firstName}`, bson.TypeString, matches(`\S+.*`)},
		// a last name
		{"lastName", `{$gen: lastName}`, bson.TypeString, matches(`\S+.*`)},
		// a city name
		{"city", `{$gen: city}`, bson.TypeString, matches(`\S.*`)},
		// a country name
		{"country", `{$gen: country}`, bson.TypeString, matches(`\S.*`)},
		// a street name
		{"street", `{$gen: street}`, bson.TypeString, matches(`\S.*`)},
		// an address with an @ and a domain
		{"email", `{$gen: email}`, bson.TypeString, matches(`\S+@\S+\.\S+`)},
		// digits only
		{"phone", `{$gen: phone}`, bson.TypeString, matches(`[0-9]+`)},
		// a company name
		{"company", `{$gen: company}`, bson.TypeString, matches(`\S.*`)},
		// a user name (gofakeit may put spaces in them)
		{"username", `{$gen: username}`, bson.TypeString, matches(`\S.*`)},
		// a single word
		{"word", `{$gen: word}`, bson.TypeString, matches(`\S+`)},
		// several sentences
		{"paragraph", `{$gen: paragraph}`, bson.TypeString, matches(`\S.*\S`)},
		// an http(s) URL
		{"url", `{$gen: url}`, bson.TypeString, matches(`https?://\S+`)},
		{"ipv4", `{$gen: ipv4}`, bson.TypeString, matches(`\d+\.\d+\.\d+\.\d+`)},
		// a job title
		{"jobTitle", `{$gen: jobTitle}`, bson.TypeString, matches(`\S.*`)},
		// words gives between min and max words
		{"words", `{$gen: words, min: 2, max: 3}`, bson.TypeString, func(t *testing.T, v bson.RawValue) {
			if n := len(strings.Fields(v.StringValue())); n < 2 || n > 3 {
				t.Errorf("%d words in %q", n, v.StringValue())
			}
		}},
		// sentence has exactly the given number of words and a period
		{"sentence", `{$gen: sentence, words: 4}`, bson.TypeString, func(t *testing.T, v bson.RawValue) {
			s := v.StringValue()
			if len(strings.Fields(s)) != 4 || !strings.HasSuffix(s, ".") {
				t.Errorf("not a 4-word sentence: %q", s)
			}
		}},
		// faker reaches any gofakeit function by lookup name
		{"faker", `{$gen: faker, provider: hackerphrase}`, bson.TypeString, matches(`\S.*`)},
		// faker passes params and keeps non-string results typed
		{"faker number", `{$gen: faker, provider: number, params: {min: 3, max: 4}}`, 0, func(t *testing.T, v bson.RawValue) {
			if i, ok := v.AsInt64OK(); !ok || i < 3 || i > 4 {
				t.Errorf("%v not an integer in [3, 4]", v)
			}
		}},
		// enum picks one of its values, which may be documents
		{"enum", `{$gen: enum, values: [{a: 1}, {a: 2}]}`, bson.TypeEmbeddedDocument, func(t *testing.T, v bson.RawValue) {
			if a := v.Document().Lookup("a").Int32(); a != 1 && a != 2 {
				t.Errorf("a = %d", a)
			}
		}},
		// enum never picks a value of weight 0
		{"enum weights", `{$gen: enum, values: [x, y, z], weights: [0, 1, 0]}`, bson.TypeString, matches(`y`)},
		// uuid is binary subtype 4, version 4
		{"uuid", `{$gen: uuid}`, bson.TypeBinary, func(t *testing.T, v bson.RawValue) {
			sub, b := v.Binary()
			if sub != bson.TypeBinaryUUID || len(b) != 16 || b[6]>>4 != 4 || b[8]>>6 != 2 {
				t.Errorf("not a v4 UUID: %d %x", sub, b)
			}
		}},
		// binary has a length within [min, max]
		{"binary", `{$gen: binary, min: 0, max: 20}`, bson.TypeBinary, func(t *testing.T, v bson.RawValue) {
			if sub, b := v.Binary(); sub != 0 || len(b) > 20 {
				t.Errorf("subtype %d, %d bytes", sub, len(b))
			}
		}},
		// array of nested documents with generators, of a length in range
		{"array", `{$gen: array, min: 2, max: 4, of: {n: {$gen: int, min: 1, max: 2}, tag: x}}`, bson.TypeArray, func(t *testing.T, v bson.RawValue) {
			vals, err := v.Array().Values()
			if err != nil || len(vals) < 2 || len(vals) > 4 {
				t.Fatalf("%d values, %v", len(vals), err)
			}
			for _, e := range vals {
				if n := e.Document().Lookup("n").Int32(); n < 1 || n > 2 {
					t.Errorf("n = %d", n)
				}
			}
		}},
		// timestamp carries the current second
		{"timestamp", `{$gen: timestamp}`, bson.TypeTimestamp, func(t *testing.T, v bson.RawValue) {
			if s, i := v.Timestamp(); time.Since(time.Unix(int64(s), 0)) > time.Minute || i == 0 {
				t.Errorf("timestamp %d/%d", s, i)
			}
		}},
		// regex options are sorted, as BSON requires
		{"regex", `{$gen: regex, pattern: "^a.*", options: xi}`, bson.TypeRegex, func(t *testing.T, v bson.RawValue) {
			if p, o := v.Regex(); p != "^a.*" || o != "ix" {
				t.Errorf("regex %q %q", p, o)
			}
		}},
		// minKey and maxKey have no value bytes, only a type
		{"minKey", `{$gen: minKey}`, bson.TypeMinKey, nil},
		// maxKey likewise
		{"maxKey", `{$gen: maxKey}`, bson.TypeMaxKey, nil},
		// javascript keeps its code as written
		{"javascript", `{$gen: javascript, code: "function() { return 1 }"}`, bson.TypeJavaScript, func(t *testing.T, v bson.RawValue) {
			if v.JavaScript() != "function() { return 1 }" {
				t.Errorf("code %q", v.JavaScript())
			}
		}},
		// key as a prefixed string
		{"key string", `{$gen: key, as: string, prefix: user}`, bson.TypeString, matches(`user[0-9]{1,2}`)},
		// series names a device, padded to the width of count (series_test.go covers the readings)
		{"series", `{$gen: series, count: 20, prefix: dev-}`, bson.TypeString, matches(`dev-[0-9]{2}`)},
		// seriesTime lies on its series' pace from start, within the jitter
		{"seriesTime", `{$gen: seriesTime, start: 2024-01-01, every: 10s, jitter: 2s}`, bson.TypeDateTime, func(t *testing.T, v bson.RawValue) {
			if ms := v.DateTime() - day("2024-01-01"); ms < 0 || ms%10000 >= 2000 {
				t.Errorf("%v is not on a 10s pace with 2s jitter from 2024-01-01", v.Time())
			}
		}},
		// walk stays within its bounds
		{"walk", `{$gen: walk, min: 10, max: 30, step: 5}`, bson.TypeDouble, func(t *testing.T, v bson.RawValue) {
			if f := v.Double(); f < 10 || f > 30 {
				t.Errorf("%v outside [10, 30]", f)
			}
		}},
		// cycle without noise stays within mean ± amplitude
		{"cycle", `{$gen: cycle, mean: 20, amplitude: 5}`, bson.TypeDouble, func(t *testing.T, v bson.RawValue) {
			if f := v.Double(); f < 15 || f > 25 {
				t.Errorf("%v outside 20 ± 5", f)
			}
		}},
		// range: its bounds go together (rangegen_test.go covers the widths)
		{"range", `{$gen: range, lower: {$gen: int, min: 0, max: 90}, width: 10}`, bson.TypeEmbeddedDocument, func(t *testing.T, v bson.RawValue) {
			if lo, hi := v.Document().Lookup("$gte").Int32(), v.Document().Lookup("$lt").Int32(); hi-lo != 10 {
				t.Errorf("range %v is not 10 wide", v)
			}
		}},
		// var outside a drawn let reads nothing yet (vars_test.go covers drawing)
		{"var", `{$var: amount}`, 0, nil},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[parse(t, tt.src).Gen] = true
	}
	for _, name := range Names() {
		if !covered[name] {
			t.Errorf("generator %q has no row here", name)
		}
	}
	st := NewState(1, 2)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := compile(t, tt.src, testEnv(Query))
			for range 300 {
				v := draw(t, g, st)
				if tt.typ != 0 && v.Type != tt.typ {
					t.Fatalf("type %v, want %v", v.Type, tt.typ)
				}
				if err := wrapDoc(v.Type, v.Value).Validate(); err != nil {
					t.Fatalf("as a field: %v", err)
				}
				if tt.check != nil {
					tt.check(t, v)
				}
				if t.Failed() {
					return
				}
			}
		})
	}
}

// TestNamesSorted protects Names: sorted, one entry per generator.
func TestNamesSorted(t *testing.T) {
	names := Names()
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Fatalf("not sorted: %q before %q", names[i-1], names[i])
		}
	}
	if len(names) != len(registry) {
		t.Fatalf("%d names for %d generators", len(names), len(registry))
	}
}
