package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
)

// ErrMalformed marks a file that is not well-formed JSON (truncated,
// a stray character): the CLI exits 10 for it, as for malformed YAML.
var ErrMalformed = errors.New("malformed JSON")

// malformedIf wraps described with ErrMalformed when err, from decoding,
// is a syntax error (an unexpected end included); else returns it as is.
func malformedIf(err, described error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &malformed{described}
	}
	return described
}

type malformed struct{ error }

func (m *malformed) Unwrap() []error { return []error{m.error, ErrMalformed} }

// jsonProblem says what is wrong with a JSON file in a reader's words,
// with its line: "line 12: totals.operations holds a string, where a
// whole number belongs", never Go's "cannot unmarshal string into Go
// struct field Totals.totals.operations of type int64".
func jsonProblem(b []byte, err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return fmt.Sprintf("line %d: %s holds %s, where %s belongs", lineAt(b, te.Offset), te.Field, jsonWords(te.Value), typeWords(te.Type))
	case errors.As(err, &se):
		return fmt.Sprintf("line %d: malformed JSON: %s", lineAt(b, se.Offset), se.Error())
	}
	return err.Error()
}

// lineAt is the 1-based line of byte offset off.
func lineAt(b []byte, off int64) int {
	off = min(max(off, 0), int64(len(b)))
	return bytes.Count(b[:off], []byte("\n")) + 1
}

func jsonWords(v string) string {
	switch v {
	case "object":
		return "an object ({...})"
	case "array":
		return "a list ([...])"
	case "number":
		return "a number"
	case "bool":
		return "true or false"
	}
	return "a " + v
}

func typeWords(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list ([...])"
	}
	return "an object ({...})"
}
