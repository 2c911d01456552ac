package plgm

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/mongoload/mongoload/internal/config"
)

// namedFakers are plgm providers (gofakeit methods in snake_case) that
// mongoload has as generators of its own, drawing from the same gofakeit
// functions.
var namedFakers = map[string]string{
	"first_name": "firstName", "last_name": "lastName", "name": "name", "city": "city",
	"country": "country", "street": "street", "email": "email", "phone": "phone",
	"company": "company", "username": "username", "word": "word", "url": "url",
	"ipv4_address": "ipv4", "job_title": "jobTitle", "paragraph": "paragraph",
}

// Domain data of plgm's airline providers.
var (
	airlineCodes = []any{"AA", "DL", "UA", "WN", "AS", "B6", "NK", "F9", "HA", "G4"}
	airportCodes = []any{"ATL", "LAX", "ORD", "DFW", "DEN", "JFK", "SFO", "SEA", "LAS", "MCO",
		"EWR", "MIA", "PHX", "IAH", "BOS", "MSP", "DTW", "FLL", "PHL", "LGA",
		"CLT", "BWI", "SLC", "SAN", "DCA", "TPA", "PDX", "STL", "HNL", "AUS"}
	planeTypes = []any{"Boeing 737-800", "Airbus A320", "Embraer E190", "Bombardier CRJ900",
		"Boeing 777-300ER", "Airbus A350-900", "Boeing 787-9", "Airbus A321neo"}
	amenities = []any{"WiFi", "Seatback TV", "Power outlets", "Hot meals", "Priority boarding", "Extra legroom", "USB charging"}
)

func enumOf(values []any) config.Value {
	return gen("enum", "values", array(literals(values)...))
}

func literals(xs []any) []config.Value {
	out := make([]config.Value, len(xs))
	for i, x := range xs {
		out[i] = lit(x)
	}
	return out
}

// boundedInt is an int in [min, max] with plgm's defaults when the
// definition gives none (swapped when reversed, as plgm does).
func boundedInt(f *fieldDef, defMin, defMax int64) config.Value {
	lo, hi := defMin, defMax
	if f.min != nil {
		lo = *f.min
	}
	if f.max != nil {
		hi = *f.max
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	return gen("int", "min", lo, "max", hi)
}

// domainProvider is one of plgm's own providers for its airline workload,
// which take precedence over gofakeit's.
func domainProvider(f *fieldDef) (config.Value, bool) {
	switch strings.ToLower(f.provider) {
	case "flight_code":
		return gen("pattern", "pattern", "??###"), true
	case "gate":
		return gen("pattern", "pattern", "?##"), true
	case "airport_code", "airport":
		return enumOf(airportCodes), true
	case "airline", "airline_code":
		return enumOf(airlineCodes), true
	case "aircraft", "plane_type", "aircraft_model":
		return enumOf(planeTypes), true
	case "seats_available", "passenger_count":
		return boundedInt(f, 0, 400), true
	case "duration_minutes":
		return boundedInt(f, 30, 900), true
	case "equip", "equipment":
		return doc(
			field("plane_type", enumOf(planeTypes)),
			field("total_seats", gen("int", "min", 76, "max", 396)),
			field("amenities", gen("array", "min", 2, "max", 5, "of", enumOf(amenities))),
		), true
	case "passengers":
		return gen("array", "min", 1, "max", 25, "of", doc(
			field("passenger_id", gen("int", "min", 1, "max", 400)),
			field("name", gen("name")),
			field("ticket_number", gen("pattern", "pattern", "TCK-########")),
			field("seat_number", gen("pattern", "pattern", "##?")),
		)), true
	}
	return config.Value{}, false
}

// template converts the field definition f into a mongoload generator
// with the same meaning, in plgm's order of precedence: the collection's
// key, enum, template, provider, then type.
func (c *converter) template(col *collectionDef, f *fieldDef) config.Value {
	if col != nil && f == col.key {
		return c.keyGen(f, false)
	}
	if f.enum != nil {
		return gen("enum", "values", fromJSON(f.enum, nil, ""))
	}
	if f.template != "" {
		return gen("pattern", "pattern", c.pattern(f))
	}
	if f.provider != "" {
		if v, ok := c.provider(f); ok {
			return v
		}
	}
	return c.byType(col, f)
}

// keyGen is the collection's key: new keys in documents, existing ones in
// queries (drawn by the access pattern).
func (c *converter) keyGen(f *fieldDef, query bool) config.Value {
	var params []any
	if f.typ == "int" || f.typ == "integer" || f.typ == "int32" {
		params = append(params, "as", "int")
	}
	if query {
		params = append(params, c.set.distribution...)
	}
	return gen("key", params...)
}

// pattern converts plgm's template: '#' a digit, '?' an uppercase letter,
// '^' a lowercase letter, anything else itself.
func (c *converter) pattern(f *fieldDef) string {
	var b strings.Builder
	lower := false
	for _, r := range f.template {
		switch r {
		case '#', '?':
			b.WriteRune(r)
		case '^':
			b.WriteByte('?')
			lower = true
		case '*', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	if lower {
		c.warn(f.file, f.line, f.path+".template", "'^' (a lowercase letter) has no equivalent in mongoload patterns: it becomes '?' (an uppercase letter)")
	}
	return b.String()
}

// provider maps a plgm provider: plgm's domain providers, mongoload's own
// realistic generators, or any gofakeit function by its lookup name.
func (c *converter) provider(f *fieldDef) (config.Value, bool) {
	if v, ok := domainProvider(f); ok {
		return v, true
	}
	name := strings.ToLower(f.provider)
	if g, ok := namedFakers[name]; ok {
		return gen(g), true
	}
	switch {
	case name == "sentence":
		words := int64(5)
		if f.maxLen > 0 {
			words = min(f.maxLen, 1000)
		}
		return gen("sentence", "words", words), true
	case name == "date" && (f.typ == "date" || f.typ == "datetime"):
		return gen("date", "from", time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), "to", c.now.UTC().Truncate(24*time.Hour)), true
	}
	lookup := strings.ReplaceAll(name, "_", "")
	if gofakeit.GetFuncLookup(lookup) != nil {
		return gen("faker", "provider", lookup), true
	}
	if f.typ == "string" {
		c.warn(f.file, f.line, f.path+".provider", "no gofakeit function %q: plgm writes the string \"val\" for this field, and so does mongoload", f.provider)
		return lit("val"), true
	}
	c.warn(f.file, f.line, f.path+".provider", "no gofakeit function %q: plgm falls back to the field's type (%s), and so does mongoload", f.provider, f.typ)
	return config.Value{}, false
}

// byType is the generator of a field by its type alone, with plgm's ranges.
func (c *converter) byType(col *collectionDef, f *fieldDef) config.Value {
	switch f.typ {
	case "int", "integer", "int32":
		return boundedInt(f, 0, math.MaxInt32)
	case "long", "int64":
		lo, hi := int64(0), int64(math.MaxInt64)
		if f.min != nil {
			lo = *f.min
		}
		if f.max != nil {
			hi = *f.max
		}
		return gen("long", "min", min(lo, hi), "max", max(lo, hi))
	case "double", "float":
		lo, hi := int64(0), int64(1000)
		if f.min != nil {
			lo = *f.min
		}
		if f.max != nil {
			hi = *f.max
		}
		return gen("double", "min", min(lo, hi), "max", max(lo, hi))
	case "decimal", "decimal128":
		return gen("decimal", "min", 0, "max", 999.99, "scale", 2)
	case "string":
		return gen("pattern", "pattern", "str-#####")
	case "bool", "boolean":
		return gen("bool")
	case "date", "datetime":
		return lastYear(c.now)
	case "timestamp":
		return gen("timestamp")
	case "objectid":
		return gen("objectId")
	case "uuid":
		return gen("uuid")
	case "binary":
		return gen("binary", "length", 16)
	case "regex":
		return gen("regex", "pattern", "^[a-z]+$")
	case "javascript":
		return gen("javascript", "code", "function() { return true; }")
	case "object", "document":
		if len(f.fields) == 0 {
			return doc(field("nested_random", gen("int", "min", 0, "max", 99)))
		}
		d := doc()
		for _, sub := range f.fields {
			d.Fields = append(d.Fields, field(sub.name, c.template(col, sub)))
		}
		return d
	case "array":
		of := gen("int", "min", 0, "max", 999)
		if f.items != nil {
			of = c.template(col, f.items)
		}
		if f.arraySize > 0 {
			return gen("array", "length", f.arraySize, "of", of)
		}
		return gen("array", "min", 1, "max", 5, "of", of)
	}
	c.warn(f.file, f.line, f.path+".type", "unknown type %q: plgm writes the string \"unknown-%s\" for this field, and so does mongoload", f.typ, f.typ)
	return lit(fmt.Sprintf("unknown-%s", f.typ))
}

// kindOf is what a field holds, for matching placeholders: number,
// string, bool, date, array, object or other.
func kindOf(f *fieldDef) string {
	switch {
	case f.enum != nil:
		if len(f.enum.items) > 0 && f.enum.items[0].kind == jsonNumber {
			return "number"
		}
		return "string"
	case f.template != "":
		return "string"
	}
	switch f.typ {
	case "int", "integer", "int32", "long", "int64", "double", "float", "decimal", "decimal128":
		return "number"
	case "string":
		return "string"
	case "bool", "boolean":
		return "bool"
	case "date", "datetime":
		return "date"
	case "array":
		return "array"
	case "object", "document":
		return "object"
	}
	return f.typ
}
