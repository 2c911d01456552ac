package plgm

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

var testNow = func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// TestNormalize follows plgm's normalization of the mix percentages.
func TestNormalize(t *testing.T) {
	tests := []struct {
		name    string
		percent map[string]int
		pinned  []string
		tx      bool
		want    map[string]int
	}{
		// plgm's documented defaults: transactions off, their 5% shared out
		// and the rounding left to find, the blog's 54/21/10/5/5/5.
		{"defaults", map[string]int{"find": 50, "update": 20, "delete": 10, "insert": 5, "bulk_insert": 5, "aggregate": 5, "transaction": 5}, nil, false,
			map[string]int{"find": 54, "update": 21, "delete": 10, "insert": 5, "bulk_insert": 5, "aggregate": 5}},
		// With transactions on their share stays.
		{"transactions", map[string]int{"find": 50, "update": 20, "delete": 10, "insert": 5, "bulk_insert": 5, "aggregate": 5, "transaction": 5}, nil, true,
			map[string]int{"find": 50, "update": 20, "delete": 10, "insert": 5, "bulk_insert": 5, "aggregate": 5, "transaction": 5}},
		// PLGM_FIND_PERCENT=100 pins find: everything else goes to 0.
		{"pinned 100", map[string]int{"find": 100, "update": 20, "delete": 10}, []string{"find"}, false,
			map[string]int{"find": 100}},
		// A pinned 50% insert leaves 50% to the others in proportion.
		{"pinned part", map[string]int{"find": 60, "update": 20, "insert": 50, "delete": 20}, []string{"insert"}, false,
			map[string]int{"find": 30, "update": 10, "insert": 50, "delete": 10}},
		// Pinned values past 100 together are scaled down to 100.
		{"pinned over", map[string]int{"find": 150, "update": 50}, []string{"find", "update"}, false,
			map[string]int{"find": 75, "update": 25}},
		// Nothing at all means all finds.
		{"empty", map[string]int{}, nil, false, map[string]int{"find": 100}},
		// Sums other than 100 are scaled, truncated, remainder to find.
		{"scaled", map[string]int{"find": 1, "update": 1, "delete": 1}, nil, false,
			map[string]int{"find": 34, "update": 33, "delete": 33}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &settings{percent: map[string]int{}, pinned: map[string]bool{}, useTransactions: tt.tx}
			for k, v := range tt.percent {
				s.percent[k] = v
			}
			for _, k := range tt.pinned {
				s.pinned[k] = true
			}
			s.normalize()
			got := map[string]int{}
			for k, v := range s.percent {
				if v != 0 {
					got[k] = v
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("normalized %v, want %v", got, tt.want)
			}
		})
	}
}

// convertField converts one field definition written in plgm's JSON.
func convertField(t *testing.T, js string) (string, []Warning) {
	t.Helper()
	n, err := parseJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	c := &converter{now: testNow(), set: defaultSettings(false), seen: map[Warning]bool{}, names: map[string]bool{}}
	f, err := c.field("c.json", "x.fields", "f", "f", n)
	if err != nil {
		t.Fatal(err)
	}
	return c.template(&collectionDef{}, f).String(), c.warnings
}

// TestFieldTemplates: each plgm field definition becomes the generator
// with its meaning.
func TestFieldTemplates(t *testing.T) {
	tests := []struct {
		name, in, want string
		warns          int
	}{
		// An int spans plgm's whole int32 range unless bounded.
		{"int", `{"type": "int"}`, `{$gen: int, min: 0, max: 2147483647}`, 0},
		// Bounds are kept.
		{"int bounded", `{"type": "integer", "min": 3, "max": 9}`, `{$gen: int, min: 3, max: 9}`, 0},
		{"long", `{"type": "long"}`, `{$gen: long, min: 0, max: 9223372036854775807}`, 0},
		// A double defaults to [0, 1000).
		{"double", `{"type": "double"}`, `{$gen: double, min: 0, max: 1000}`, 0},
		{"decimal", `{"type": "decimal128"}`, `{$gen: decimal, min: 0, max: 999.99, scale: 2}`, 0},
		// A string without provider is "str-" and a number.
		{"string", `{"type": "string"}`, `{$gen: pattern, pattern: "str-#####"}`, 0},
		{"bool", `{"type": "boolean"}`, `{$gen: bool}`, 0},
		// Dates fall within the year before now.
		{"date", `{"type": "date"}`, `{$gen: date, from: 2025-03-01T00:00:00Z, to: 2026-03-01T00:00:00Z}`, 0},
		{"objectid", `{"type": "objectid"}`, `{$gen: objectId}`, 0},
		// Providers with a mongoload generator of their own.
		{"named provider", `{"type": "string", "provider": "first_name"}`, `{$gen: firstName}`, 0},
		// Any other gofakeit function by its lookup name.
		{"faker provider", `{"type": "string", "provider": "beer_name"}`, `{$gen: faker, provider: "beername"}`, 0},
		// plgm's airline providers.
		{"domain provider", `{"type": "int", "provider": "seats_available", "max": 150}`, `{$gen: int, min: 0, max: 150}`, 0},
		{"sentence", `{"type": "string", "provider": "sentence", "maxLength": 12}`, `{$gen: sentence, words: 12}`, 0},
		// An unknown provider on a string is plgm's "val", with a warning.
		{"unknown provider", `{"type": "string", "provider": "flux_capacitor"}`, `"val"`, 1},
		// An unknown provider on another type falls back to the type.
		{"unknown provider int", `{"type": "int", "provider": "flux_capacitor", "max": 5}`, `{$gen: int, min: 0, max: 5}`, 1},
		// enum wins over everything.
		{"enum", `{"type": "string", "provider": "city", "enum": ["a", "b"]}`, `{$gen: enum, values: ["a", "b"]}`, 0},
		// Templates: '#' and '?' as in mongoload, '^' warned, '*' escaped.
		{"template", `{"type": "string", "template": "AB-##?*"}`, `{$gen: pattern, pattern: "AB-##?\\*"}`, 0},
		{"template lower", `{"type": "string", "template": "^^#"}`, `{$gen: pattern, pattern: "??#"}`, 1},
		// Objects nest, in the file's order.
		{"object", `{"type": "object", "fields": {"b": {"type": "bool"}, "a": {"type": "int", "max": 1}}}`, `{b: {$gen: bool}, a: {$gen: int, min: 0, max: 1}}`, 0},
		{"empty object", `{"type": "object"}`, `{nested_random: {$gen: int, min: 0, max: 99}}`, 0},
		// Arrays: arraySize elements, or 1 to 5, of items or of small ints.
		{"array", `{"type": "array", "arraySize": 3, "items": {"type": "string", "provider": "city"}}`, `{$gen: array, length: 3, of: {$gen: city}}`, 0},
		{"array default", `{"type": "array"}`, `{$gen: array, min: 1, max: 5, of: {$gen: int, min: 0, max: 999}}`, 0},
		// Array of objects holding arrays.
		{"nested arrays", `{"type": "array", "arraySize": 2, "items": {"type": "object", "fields": {"tags": {"type": "array", "arraySize": 1, "items": {"type": "bool"}}}}}`,
			`{$gen: array, length: 2, of: {tags: {$gen: array, length: 1, of: {$gen: bool}}}}`, 0},
		// Types plgm lists but writes as "unknown-...": real values here.
		{"uuid", `{"type": "uuid"}`, `{$gen: uuid}`, 0},
		{"binary", `{"type": "binary"}`, `{$gen: binary, length: 16}`, 0},
		// An unknown type keeps plgm's "unknown-" string, with a warning.
		{"unknown type", `{"type": "vector"}`, `"unknown-vector"`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warns := convertField(t, tt.in)
			if got != tt.want {
				t.Errorf("%s\n got %s\nwant %s", tt.in, got, tt.want)
			}
			if len(warns) != tt.warns {
				t.Errorf("%d warnings %v, want %d", len(warns), warns, tt.warns)
			}
		})
	}
}

func convertTestdata(t *testing.T, env map[string]string, configPath string) *Result {
	t.Helper()
	r, err := Convert(Options{CollectionsPath: "testdata/collections", QueriesPath: "testdata/queries", ConfigPath: configPath, Getenv: envOf(env), Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func findOp(t *testing.T, cfg *config.Config, name string) config.Operation {
	t.Helper()
	for _, op := range cfg.Operations {
		if op.Name == name {
			return op
		}
	}
	var names []string
	for _, op := range cfg.Operations {
		names = append(names, op.Name)
	}
	t.Fatalf("no operation %q among %v", name, names)
	return config.Operation{}
}

// TestConvertTestdata converts definitions with nested objects and arrays
// and checks the meaning of the result.
func TestConvertTestdata(t *testing.T) {
	r := convertTestdata(t, nil, "")
	cfg := r.Config
	if len(cfg.Collections) != 2 || cfg.Collections[0].Name != "customers" || cfg.Collections[1].Name != "orders" {
		t.Fatalf("collections %v (default.json must be left out in a custom workload)", cfg.Collections)
	}
	orders := cfg.Collections[1]
	tmpl := orders.Template.String()
	for _, want := range []string{
		`order_id: {$gen: key, as: "int"}`, // the primary integer key (the shard key)
		`customer: {full_name: {$gen: name}`, `address: {city: {$gen: city}`,
		`items: {$gen: array, length: 3, of: {product_name: {$gen: faker, provider: "beername"}`,
	} {
		if !strings.Contains(tmpl, want) {
			t.Errorf("orders template lacks %s:\n%s", want, tmpl)
		}
	}
	if orders.ShardKey.String() != `{order_id: "hashed"}` || len(orders.Indexes) != 3 {
		t.Errorf("shard key %s, %d indexes", orders.ShardKey, len(orders.Indexes))
	}
	// A placeholder on the key finds an existing key; one on a field draws
	// that field's values; one on no field draws its type.
	if f := findOp(t, cfg, "order_by_id").Filter.String(); f != `{order_id: {$gen: key, as: "int"}}` {
		t.Errorf("order_by_id filter %s", f)
	}
	if f := findOp(t, cfg, "orders_by_city").Filter.String(); !strings.Contains(f, `customer.address.city: {$gen: city}`) || !strings.Contains(f, `$in: ["paid", "shipped"]`) {
		t.Errorf("orders_by_city filter %s", f)
	}
	if u := findOp(t, cfg, "updateOne_orders").Update.String(); !strings.Contains(u, `status: {$gen: enum`) || !strings.Contains(u, `is_priority: {$gen: bool}`) {
		t.Errorf("update %s", u)
	}
	if f := findOp(t, cfg, "updateMany_orders").Filter.String(); !strings.Contains(f, `$gt: {$gen: double, min: 5, max: 500}`) {
		t.Errorf("updateMany filter %s", f)
	}
	if op := findOp(t, cfg, "find_customers"); op.Filter.String() != `{customer_id: {$gen: key}}` || op.Limit.N != 1 {
		t.Errorf("find_customers %s limit %d", op.Filter, op.Limit.N)
	}
	// Mix: 54% finds over 4 find queries, 21% updates 90/10, deletes with
	// plgm's generated deleteMany, inserts and bulk inserts per collection.
	weights := map[string]float64{}
	var total float64
	for _, op := range cfg.Operations {
		weights[op.Type] += op.Weight
		total += op.Weight
	}
	want := map[string]float64{"find": 54, "updateOne": 18.9, "updateMany": 2.1, "deleteOne": 9, "deleteMany": 1, "aggregate": 5, "insertOne": 5, "insertMany": 5}
	for typ, w := range want {
		if d := weights[typ] - w; d > 0.01 || d < -0.01 {
			t.Errorf("%s weighs %.2f, want %.2f", typ, weights[typ], w)
		}
	}
	if total < 99.99 || total > 100.01 {
		t.Errorf("weights sum to %.2f", total)
	}
	if op := findOp(t, cfg, "deleteMany_orders_generated"); op.Filter.String() != `{order_id: {$gen: key, as: "int"}}` {
		t.Errorf("generated deleteMany %s", op.Filter)
	}
	// Each unsupported feature is one warning naming file and field.
	text := ""
	for _, w := range r.Warnings {
		text += w.String() + "\n"
	}
	for _, want := range []string{
		"testdata/collections/orders.json:44: orders.fields.weight_kg.precision: unknown key",
		"testdata/collections/orders.json:49: orders.indexes[2].unique",
		"orders.json:11: code.template: '^'",
		"notes.provider: no gofakeit function",
		"testdata/queries/orders.json:46: [6].operation: plgm does not run insert queries",
		"[7].hint: unknown key",
		"mystery: unknown placeholder <vector>",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no warning %q in:\n%s", want, text)
		}
	}
}

// TestImportedYAMLValidates: the YAML of mongoload import plgm reads back
// into the same workload, validates and compiles.
func TestImportedYAMLValidates(t *testing.T) {
	r := convertTestdata(t, map[string]string{"PLGM_PASSWORD": "secret", "PLGM_URI": "mongodb://u:pw@db1:27017/?replicaSet=rs0"}, "")
	var buf bytes.Buffer
	if err := WriteYAML(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "secret") || strings.Contains(out, ":pw@") {
		t.Fatalf("the password is in the YAML:\n%s", out)
	}
	t.Logf("imported workload:\n%s", out)
	back, _ := workloadtest.Compile(t, buf.Bytes(), "imported.yaml")
	for i, col := range back.Collections {
		if got, want := col.Template.String(), stripLines(r.Config.Collections[i].Template).String(); got != want {
			t.Errorf("collection %s template changed through YAML:\n got %s\nwant %s", col.Name, got, want)
		}
	}
	if len(back.Operations) != len(r.Config.Operations) {
		t.Fatalf("%d operations read back, %d written", len(back.Operations), len(r.Config.Operations))
	}
	for i, op := range back.Operations {
		orig := r.Config.Operations[i]
		if op.Name != orig.Name || op.Weight != orig.Weight || op.Filter.String() != stripLines(orig.Filter).String() {
			t.Errorf("operation %d: %s %v %s, written %s %v %s", i, op.Name, op.Weight, op.Filter, orig.Name, orig.Weight, orig.Filter)
		}
	}
}

func stripLines(v config.Value) config.Value { return v } // String ignores lines

// TestConfigFileAndEnvironment: config.yaml sets the run and the mix, and
// PLGM_* variables win over it, a percentage set there pinned.
func TestConfigFileAndEnvironment(t *testing.T) {
	r, err := Convert(Options{ConfigPath: "testdata/config.yaml", Getenv: envOf(map[string]string{
		"PLGM_COLLECTIONS_PATH": "testdata/collections", "PLGM_QUERIES_PATH": "testdata/queries",
		"PLGM_CONCURRENCY": "12", "PLGM_FIND_PERCENT": "100", "PLGM_URI": "mongodb://db1:27017", "PLGM_PASSWORD": "pw",
	}), Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	cfg := r.Config
	if cfg.Run.Concurrency != 12 || cfg.Run.Duration.D() != 3*time.Second || cfg.Run.Seed != 500 {
		t.Errorf("run %+v", cfg.Run)
	}
	if cfg.Connection.URI != "mongodb://db1:27017" || cfg.Connection.Password != "pw" || cfg.Connection.Options["directConnection"] != "true" ||
		cfg.Connection.Options["compressors"] != "snappy" || cfg.Connection.MaxPoolSize != 200 {
		t.Errorf("connection %+v", cfg.Connection)
	}
	for _, op := range cfg.Operations {
		if op.Type != "find" {
			t.Errorf("PLGM_FIND_PERCENT=100 left %s %s at %.1f", op.Name, op.Type, op.Weight)
		}
	}
	text := ""
	for _, w := range r.Warnings {
		text += w.String() + "\n"
	}
	for _, want := range []string{"config.yaml:28: think_time_ms: think time is not supported", "config.yaml:29: colour: not a plgm setting"} {
		if !strings.Contains(text, want) {
			t.Errorf("no warning %q in:\n%s", want, text)
		}
	}
	if strings.Contains(text, "op_timeout_ms") || strings.Contains(text, "max_idle_time") {
		t.Errorf("settings without effect on the workload were warned about:\n%s", text)
	}
}

// TestDefinitionErrors: broken definitions are one clear error naming the
// file, line and field.
func TestDefinitionErrors(t *testing.T) {
	tests := []struct {
		name        string
		collections string
		queries     string
		want        string
	}{
		// Malformed JSON is located.
		{"syntax", `[{"database": "d", "collection": "c",` + "\n" + `"fields": {"a": }}]`, "", `c.json: line 2: malformed JSON`},
		// A definition without its names.
		{"no names", `[{"fields": {}}]`, "", `c.json:1: [0]: a collection definition needs "database" and "collection"`},
		// min above max.
		{"min max", `[{"database": "d", "collection": "c", "fields": {"a": {"type": "int", "min": 5, "max": 1}}}]`, "", `c.fields.a: min (5) is greater than max (1)`},
		// A non-integer bound.
		{"bound type", `[{"database": "d", "collection": "c", "fields": {"a": {"type": "int", "max": "ten"}}}]`, "", `c.fields.a.max: must be a whole number, not "ten"`},
		// A query on a collection nobody defined.
		{"query collection", `[{"database": "d", "collection": "orders", "fields": {"a": {"type": "int"}}}]`,
			`[{"collection": "ordres", "operation": "find", "filter": {}}]`, `q.json:1: [0].collection: no collection definition for "ordres" (defined: orders) (did you mean "orders"?)`},
		// A query without an operation.
		{"query op", `[{"database": "d", "collection": "c", "fields": {"a": {"type": "int"}}}]`,
			`[{"collection": "c", "filter": {}}]`, `[0].operation: missing`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cols := filepath.Join(dir, "c.json")
			if err := os.WriteFile(cols, []byte(tt.collections), 0o644); err != nil {
				t.Fatal(err)
			}
			o := Options{CollectionsPath: cols, Now: testNow}
			if tt.queries != "" {
				o.QueriesPath = filepath.Join(dir, "q.json")
				if err := os.WriteFile(o.QueriesPath, []byte(tt.queries), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Convert(o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("more than one line: %q", err)
			}
		})
	}
}

// TestDefaultWorkloadFiltering: a directory gives every file but
// default.json, or only default.json with PLGM_DEFAULT_WORKLOAD=true.
func TestDefaultWorkloadFiltering(t *testing.T) {
	r, err := Convert(Options{CollectionsPath: "testdata/collections", Getenv: envOf(map[string]string{"PLGM_DEFAULT_WORKLOAD": "true"}), Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Config.Collections) != 1 || r.Config.Collections[0].Name != "flights" {
		t.Fatalf("collections %v, want default.json's flights alone", r.Config.Collections)
	}
	// Without queries only inserts and plgm's generated updates and deletes run.
	for _, op := range r.Config.Operations {
		if op.Type == "find" || op.Type == "aggregate" {
			t.Errorf("%s without a query", op.Type)
		}
	}
}
