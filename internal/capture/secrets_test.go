package capture

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
)

// TestValuesThatIdentifyWithinStrings: a value that identifies among the
// words of a string (promises5: a name and a card number in one
// $addFields constant, a name and an API key in a memo), secrets of a
// known form and upper-case codes, calendar dates; and what stays a
// category.
func TestValuesThatIdentifyWithinStrings(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"Zelda Quixote owes 4539148803436467", true},                      // a name and a card in a sentence
		{"Yorick Pemberton sk_live_51H8qXyZsecretTOKENabcdef123456", true}, // a name and a key
		{"note: sk_live_51H8", true},                                       // a key of a known form, however short
		{"742 Evergreen Terrace", true},                                    // a street
		{"call +44 20 7946 0958 today", true},                              // a phone in a sentence
		{"ask zelda.quixote@privmail.test", true},                          // an email in a sentence
		{"COUPON-ZQ-7781", true},                                           // a code
		{"X7KQ-99A2-PL3M", true},                                           // a licence key
		{"eyJhbGciOiJIUzI1NiJ9.e30.sig", true},                             // a JSON web token
		{"2024-06-01 12:30:45", true},                                      // digits enough to be a number of someone's (as before)
		{"Springfield", false},                                             // one capitalised word: a city, a category
		{"closed", false},
		{"payment failed: card declined", false}, // a sentence without a name
		{"us-east-1", false},
		{"v1.2.3", false},
		{"tenant-0042", false},
		{"ISO", false},
		{"Mozilla/5.0 (X11; Linux x86_64)", false},
		{"SKU", false},
	} {
		if got := stringIdentifies(c.s); got != c.want {
			t.Errorf("stringIdentifies(%q) = %v, want %v", c.s, got, c.want)
		}
	}
	midnight := bson.RawValue{Type: bson.TypeDateTime, Value: bsonInt64(455932800000)} // 1984-07-13
	noon := bson.RawValue{Type: bson.TypeDateTime, Value: bsonInt64(455932800000 + 12*3600*1000)}
	if !valueIdentifies(midnight) || valueIdentifies(noon) {
		t.Errorf("a calendar date (a birth date) identifies, an event's time does not: midnight %v, noon %v", valueIdentifies(midnight), valueIdentifies(noon))
	}
}

// TestSensitiveFieldNames: a field whose name says it holds a person's
// data or a secret is private whatever its values look like (a CVV, a
// street, a PIN); words inside names count, short ones only whole.
func TestSensitiveFieldNames(t *testing.T) {
	for _, c := range []struct {
		path string
		want bool
	}{
		{"cards.cvv", true}, {"address.street", true}, {"address.city", true}, {"pin", true}, {"PIN", true},
		{"user.passwordHash", true}, {"api_key", true}, {"dob", true}, {"date_of_birth", true}, {"contactEmail", true},
		{"shipping", false}, {"status", false}, {"score", false}, {"spinner", false}, {"company.name", false},
	} {
		if got := sensitiveName(c.path); got != c.want {
			t.Errorf("sensitiveName(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

func bsonInt64(v int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }

// A small number is a stage's option, written as it is, but under a field
// whose name says it is private ($addFields: {cvv: 937}) it is data; a
// projection's or a sort's flag on such a field stays shape.
func TestSmallNumbersUnderPrivateNames(t *testing.T) {
	n := func(x int32) bson.RawValue {
		return bson.RawValue{Type: bson.TypeInt32, Value: binary.LittleEndian.AppendUint32(nil, uint32(x))}
	}
	for _, c := range []struct {
		path  string
		v     int32
		shape bool
	}{
		{"pipeline.1.$addFields.cvv", 937, false},
		{"pipeline.0.$addFields.pin", 42, false},
		{"pipeline.0.$addFields.score", 937, true},
		{"projection.password", 0, true},
		{"sort.dob", -1, true},
		{"pipeline.2.$limit", 10, true},
	} {
		if got := shapeLiteral(c.path, n(c.v)); got != c.shape {
			t.Errorf("shapeLiteral(%s: %d) = %v, want %v", c.path, c.v, got, c.shape)
		}
	}
}

// TestFieldNamesThatAreData: a document keyed by its users' emails and
// names does not write them as field names, anywhere: the template, the
// filter, the operation's name, the shape line; other names stay, and
// the same name is the same hash in the template and the filter (so the
// replayed lookup finds the field). --keep-values writes them.
func TestFieldNamesThatAreData(t *testing.T) {
	c := NewCollection("shop", "orders")
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 50 {
		d, _ := bson.Marshal(bson.D{{Key: "_id", Value: i}, {Key: "prefs", Value: bson.D{{Key: "zelda.quixote@privmail.test", Value: true}, {Key: "Zelda Quixote", Value: int32(i % 2)}, {Key: "lang", Value: "en"}}}})
		c.AddSample(d, r)
	}
	c.Count = 50
	capture := func(o Options) string {
		o.Now = func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
		res := &Result{Opts: o, Shapes: NewShapes(1), Collections: []*Collection{c}}
		p := &source.Profiled{Emit: res.Shapes.Add}
		for i := range 20 {
			p.Keep(find(bson.D{{Key: "prefs.Zelda Quixote", Value: int32(i % 2)}}, time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC)))
		}
		res.Sources = []*source.Source{p.Source("test", "test")}
		return write(t, res.Workload("shop"))
	}
	text := capture(Options{})
	for _, leak := range []string{"zelda", "Zelda", "Quixote", "privmail"} {
		if strings.Contains(text, leak) {
			t.Errorf("the file carries %q:\n%s", leak, text)
		}
	}
	h := hashName("f", "Zelda Quixote")
	for _, want := range []string{"lang: en", "filter: {prefs." + h + ": ", "      " + h + ": ", "find_orders_by_prefs_" + h, "shape: find shop.orders filter:{prefs." + h + ":"} {
		if !strings.Contains(text, want) {
			t.Errorf("the file lacks %q:\n%s", want, text)
		}
	}
	if kept := capture(Options{KeepValues: true}); !strings.Contains(kept, "Zelda Quixote") {
		t.Errorf("--keep-values did not write the names:\n%s", kept)
	}
}
