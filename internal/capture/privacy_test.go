package capture

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
)

// piiExport is a profiler export whose literals identify people, in every
// place a command holds one: $addFields, $search, $lookup's pipeline, a
// projection's $elemMatch, a $-string (a password hash), a card number
// and a birth date seen once, two social security numbers, and five
// emails and five names looked up twelve times each (a low cardinality
// per placeholder).
func piiExport() string {
	var sb strings.Builder
	line := func(op, ns, cmd string) {
		fmt.Fprintf(&sb, `{"op":%q,"ns":%q,"command":%s,"nreturned":1,"millis":0,"ts":{"$date":"2026-11-26T10:00:00Z"}}`+"\n", op, ns, cmd)
	}
	for k := 1; k <= 4; k++ {
		line("command", "shop.people", `{"aggregate":"people","pipeline":[{"$match":{"status":"a"}},{"$addFields":{"vip":{"$eq":["$email","vip.person`+fmt.Sprint(k)+`@secretcorp-example.org"]}}}],"cursor":{}}`)
		line("command", "shop.people", `{"aggregate":"people","pipeline":[{"$search":{"index":"default","text":{"query":"Guinevere Przybylski`+fmt.Sprint(k)+`","path":"name"}}}],"cursor":{}}`)
		line("command", "shop.people", `{"aggregate":"people","pipeline":[{"$lookup":{"from":"orders","pipeline":[{"$match":{"customer":"Horatio Featherstonehaugh`+fmt.Sprint(k)+`"}}],"as":"o"}},{"$limit":10}],"cursor":{}}`)
		line("command", "shop.people", `{"aggregate":"people","pipeline":[{"$facet":{"x":[{"$match":{"token":"sk_live_4eC39HqLyjWDarjtT1zdp7dc`+fmt.Sprint(k)+`"}}]}}],"cursor":{}}`)
		line("query", "shop.users", `{"find":"users","filter":{"passwordHash":"$2b$12$SECRETHASH`+fmt.Sprint(k)+`abcdefghijklmnopqrstuvwxyz0123"}}`)
		line("query", "shop.people", `{"find":"people","filter":{"status":"a"},"projection":{"contacts":{"$elemMatch":{"email":"isolde`+fmt.Sprint(k)+`@secretcorp-example.org"}}},"sort":{"since":-1}}`)
	}
	for k := 1; k <= 5; k++ {
		for range 12 {
			line("query", "shop.people", `{"find":"people","filter":{"email":"often`+fmt.Sprint(k)+`@secretcorp-example.org"}}`)
			line("query", "shop.people", `{"find":"people","filter":{"name":"Bartholomew Quixley`+string(rune('a'+k))+`"}}`)
		}
	}
	line("query", "shop.cards", `{"find":"cards","filter":{"pan":{"$numberLong":"4111222233334444"}}}`)
	line("command", "shop.people", `{"aggregate":"people","pipeline":[{"$addFields":{"mine":{"$eq":["$customerId",7654321]}}},{"$sample":{"size":5000}}],"cursor":{}}`)
	line("query", "shop.tax", `{"find":"tax","filter":{"ssn":{"$in":[{"$numberLong":"123456789"},{"$numberLong":"987654320"}]}}}`)
	line("query", "shop.tax", `{"find":"tax","filter":{"dob":{"$date":"1971-03-14T00:00:00Z"}}}`)
	return sb.String()
}

// piiLiterals are the private values of piiExport, as a file could show them.
var piiLiterals = []string{"secretcorp-example", "Przybylski", "Featherstonehaugh", "SECRETHASH", "sk_live", "Quixley",
	"4111222233334444", "123456789", "987654320", "1971-03-14", "often1", "7654321"}

// TestNoPrivateLiteralLeaves: without --keep-values none of piiExport's
// private values is in the workload file, whatever stage, projection or
// $-string held it and however often it was looked up; the numbers'
// ranges are the decades of their digits, the date's its year; the
// stages' own options (a $limit, $lookup's from and as, $search's path
// and index, a sort) stay as they were, so the file runs; a status
// seen with no identifying value is still an enum. With --keep-values the
// values are written.
func TestNoPrivateLiteralLeaves(t *testing.T) {
	run := func(o Options) string {
		p := &source.Profiled{}
		if err := p.ReadExport(strings.NewReader(piiExport()), "pii.json"); err != nil {
			t.Fatal(err)
		}
		o.Now = func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
		res := &Result{Opts: o, Shapes: NewShapes(1)}
		for _, op := range p.Ops {
			res.Shapes.Add(op)
		}
		src := p.Source("pii.json", "test")
		res.Sources = []*source.Source{src}
		return write(t, res.Workload("shop"))
	}
	text := run(Options{})
	for _, leak := range piiLiterals {
		if strings.Contains(text, leak) {
			t.Errorf("the file carries %q:\n%s", leak, text)
		}
	}
	for _, want := range []string{
		"{$lookup: {from: orders, pipeline: [{$match: {customer: {$gen: string",
		"as: o}}, {$limit: 10}]",
		"{$sample: {size: 5000}}",
		"{$search: {index: default, text: {query: {$gen: string",
		"path: name}}}",
		"filter: {status: a}",
		"sort: {since: -1}",
		"pan: {$gen: long, min: 1000000000000000, max: 1",         // 16 digits, whichever
		"ssn: {$in: [{$gen: long, min: 100000000, max: 999999999", // 9 digits, whichever
		`dob: {$gen: date, from: "1971-01-01T00:00:00Z", to: "1971-12-31T23:59:59.999Z"}`,
		"email: {$gen: email}",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the file lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "values: no literal") {
		t.Errorf("the header does not state the privacy rule:\n%s", text)
	}
	kept := run(Options{KeepValues: true})
	for _, v := range []string{"often1@secretcorp-example.org", "4111222233334444"} {
		if !strings.Contains(kept, v) {
			t.Errorf("--keep-values did not write %q", v)
		}
	}
}

// TestPrivateByTheCollectionsSample: a field the collection's sample
// shows to be an identifier (500 distinct emails) is private in a
// placeholder that saw only three of its values, each many times, which
// alone would make a category.
func TestPrivateByTheCollectionsSample(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ops []source.Op
	for i := range 90 {
		ops = append(ops, find(bson.D{{Key: "total", Value: []float64{1.5, 2.5, 3.5}[i%3]}}, t0.Add(time.Duration(i)*time.Second)))
	}
	res := captured(ops, Options{})
	text := write(t, res.Workload("shop"))
	if strings.Contains(text, "1.5") || !strings.Contains(text, "filter: {total: {$gen: double") {
		t.Errorf("the sample's verdict (total: a value per order) did not make the lookup's values private:\n%s", text)
	}
}

// TestStringsThatIdentify: the detector of identifying strings, row by row.
func TestStringsThatIdentify(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"jane.doe@example.com", true},                 // an email
		{"4111 1111 1111 1111", true},                  // a card number
		{"123-45-6789", true},                          // a social security number
		{"$2b$12$abcdefghijklmnopqrstuv", true},        // a bcrypt hash
		{"sk_live_4eC39HqLyjWDarjtT1zdp7dc", true},     // an API key
		{"6b1f3c1e-3f3a-4c5e-9a57-2f1e3c1e3f3a", true}, // a UUID
		{"Guinevere Przybylski", true},                 // a person's name
		{"paid", false},                                // a status
		{"in progress", false},                         // a lower-case phrase
		{"FR", false},                                  // a country code
		{"tenant-0042", false},                         // an organisation's code: a category, judged by cardinality
		{"2024-06", false},                             // a period
		{"$price", false},                              // a field path (not here: isFieldPath)
		{"application/json", false},                    // a content type
		{"ERROR", false},                               // a level
		{"+33 1 23 45 67 89", true},                    // a phone number
		{"iPhone", false},                              // a device
		{"Mozilla/5.0 (X11; Linux x86_64)", false},     // a user agent: not a name
		{"Zelda Quixote\xe9", true},                    // bytes that are not UTF-8 (Latin-1): unreadable, data
		{"COUPON-ZQ-7781\ufffd", true},                 // U+FFFD, the mark of such a byte
		{"paid\u200b", true},                           // a zero-width space: not printed, data
		{"Zoe\u0308 Quixote", true},                    // a name with a combining accent
		{"café", false},                                // an accent is a letter: a category still
	} {
		if got := stringIdentifies(c.s); got != c.want {
			t.Errorf("stringIdentifies(%q) = %v, want %v", c.s, got, c.want)
		}
	}
	for _, c := range []struct {
		s    string
		want bool
	}{{"$customer_id", true}, {"$$NOW", true}, {"$a.b", true}, {"$2b$12$x", false}, {"$12.50", false}, {"$", false}, {"plain", false}} {
		if got := isFieldPath(c.s); got != c.want {
			t.Errorf("isFieldPath(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// TestRedactNamesKeepsStagesRunning: --redact-names hashes the names a
// stage holds ($lookup's from is a collection, its as and $search's path
// are fields, $email a field path) and keeps what the stage needs to run:
// its own argument names (from, as, pipeline, path, index, text, query)
// and _id, which every collection has.
func TestRedactNamesKeepsStagesRunning(t *testing.T) {
	p := &source.Profiled{}
	if err := p.ReadExport(strings.NewReader(piiExport()+
		`{"op":"query","ns":"shop.people","command":{"find":"people","filter":{"_id":7},"sort":{"_id":1}},"ts":{"$date":"2026-11-26T10:00:00Z"}}`+"\n"), "pii.json"); err != nil {
		t.Fatal(err)
	}
	res := &Result{Opts: Options{RedactNames: true, Now: time.Now}, Shapes: NewShapes(1)}
	for _, op := range p.Ops {
		res.Shapes.Add(op)
	}
	res.Sources = []*source.Source{p.Source("pii.json", "test")}
	text := write(t, res.Workload("capture-"+NameOf("shop", true)))
	for _, want := range []string{
		"{$lookup: {from: " + hashName("c", "orders") + ", pipeline: [{$match: {" + hashName("f", "customer") + ":",
		"as: " + hashName("f", "o") + "}}",
		"{$search: {index: default, text: {query: {$gen: string",
		"path: " + hashName("f", "name") + "}}}",
		"{$eq: [$" + hashName("f", "email") + ",",
		"filter: {_id: ",
		"sort: {_id: 1}",
		"name: capture-" + hashName("db", "shop"),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the redacted file lacks %q:\n%s", want, text)
		}
	}
	for _, name := range []string{"orders", "people", "customer", "email:", "shop"} {
		if strings.Contains(strings.SplitN(text, "\nname:", 2)[1], name) {
			t.Errorf("--redact-names left %q:\n%s", name, text)
		}
	}
}
