package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Load reads a workload file (YAML or JSON) over the defaults.
func Load(path string) (*Config, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, &Error{Kind: Unreadable, File: path, Msg: fmt.Sprintf("cannot read workload file: %v", unwrapPathError(err))}
	}
	cfg, err := Parse(data, path)
	if err != nil {
		return nil, err
	}
	return cfg, nil
}

// Parse decodes a workload from data over the defaults; name labels errors
// and becomes Config.Source.
func Parse(data []byte, name string) (*Config, error) {
	cfg := Default()
	cfg.Source = name
	if err := checkSize(data, name); err != nil {
		return nil, err
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{Kind: Syntax, File: name, Msg: "the workload file is empty"}
		}
		return nil, syntaxError(err, name)
	}
	if err := checkExpansion(&doc, name); err != nil {
		return nil, err
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, &Error{Kind: Syntax, File: name, Line: root.Line, Msg: "a workload is a mapping with keys such as collections: and operations:"}
	}
	var problems Errors
	checkKeys(root, reflect.TypeOf(cfg).Elem(), "", &problems)
	if len(problems) > 0 {
		return nil, WithFile(problems, name)
	}
	if err := root.Decode(cfg); err != nil {
		return nil, WithFile(decodeError(err), name)
	}
	recordLines(root, cfg)
	return cfg, nil
}

var (
	yamlLine    = regexp.MustCompile(`line (\d+)`)
	wholeDigits = regexp.MustCompile("^`[-+]?[0-9_]+(\\.\\.\\.)?`$") // too big: YAML reads it as a float, and clips it
	yamlTypeErr = regexp.MustCompile("cannot unmarshal !!(\\w+) ?(`.*`)? into (.+)")
	yamlTags    = map[string]string{"str": "string", "int": "number", "float": "number", "bool": "boolean",
		"seq": "list", "map": "mapping", "null": "null", "timestamp": "timestamp"}
)

// goTypeName says what a Go type holds, in a workload author's words.
func goTypeName(t string) string {
	switch {
	case strings.Contains(t, "int"):
		return "a whole number"
	case strings.Contains(t, "float"):
		return "a number"
	case t == "bool":
		return "true or false"
	case t == "string":
		return "a string"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map"), strings.HasPrefix(t, "config."):
		return "a mapping"
	}
	return t
}

func syntaxError(err error, file string) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &Error{Kind: Syntax, File: file}
	if m := yamlLine.FindStringSubmatchIndex(msg); m != nil {
		e.Line, _ = strconv.Atoi(msg[m[2]:m[3]])
		msg = strings.TrimLeft(msg[m[1]:], ": ")
	}
	// The YAML parser (unlike its scanner) reports the 0-based line of the
	// construct it was parsing, and omits line 0 altogether.
	if strings.HasPrefix(msg, "did not find expected") {
		e.Line++
	}
	e.Msg = "malformed YAML/JSON: " + msg
	return e
}

// decodeError turns the decoder's type errors into located problems.
func decodeError(err error) error {
	var ce *Error
	if errors.As(err, &ce) {
		return ce
	}
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return &Error{Kind: Invalid, Msg: err.Error()}
	}
	var es Errors
	for _, m := range te.Errors {
		e := &Error{Kind: Invalid, Msg: m}
		if loc := yamlLine.FindStringSubmatchIndex(m); loc != nil {
			e.Line, _ = strconv.Atoi(m[loc[2]:loc[3]])
			e.Msg = strings.TrimLeft(m[loc[1]:], ": ")
		}
		if m := yamlTypeErr.FindStringSubmatch(e.Msg); m != nil {
			e.Msg = fmt.Sprintf("wrong type: %s is a %s, where %s is expected", m[2], yamlTags[m[1]], goTypeName(m[3]))
			if m[2] == "" {
				e.Msg = fmt.Sprintf("wrong type: a %s, where %s is expected", yamlTags[m[1]], goTypeName(m[3]))
			}
			if (m[1] == "int" || m[1] == "float") && strings.Contains(m[3], "int") && wholeDigits.MatchString(m[2]) {
				// A whole number where one is expected: too big for it, not the wrong type.
				e.Msg = fmt.Sprintf("%s is out of range for %s", m[2], intRange(m[3]))
			}
		}
		es = append(es, e)
	}
	return es
}

var (
	valueType = reflect.TypeOf(Value{})
	limitType = reflect.TypeOf(Limit{})
)

// checkKeys reports every mapping key that the struct type t does not have,
// with the nearest valid key, so a typo never silently falls back to a default.
func checkKeys(n *yaml.Node, t reflect.Type, path string, out *Errors) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == valueType || t == limitType || reflect.PointerTo(t).Implements(unmarshalerType) {
		return
	}
	if err := shapeError(n, t, path); err != nil {
		*out = append(*out, err)
		return
	}
	if err := fractionError(n, t, path); err != nil {
		*out = append(*out, err)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return // the decoder reports the type mismatch
		}
		fields := yamlFields(t)
		names := make([]string, 0, len(fields))
		for k := range fields {
			names = append(names, k)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			f, ok := fields[k.Value]
			if !ok {
				*out = append(*out, &Error{Kind: UnknownKey, Line: k.Line, Field: join(path, k.Value),
					Msg: "unknown key" + DidYouMean(k.Value, names)})
				continue
			}
			checkKeys(n.Content[i+1], f.Type, join(path, k.Value), out)
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return
		}
		for i, c := range n.Content {
			checkKeys(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i), out)
		}
	}
}

var unmarshalerType = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()

// shapeError reports a mapping where a list belongs, or the reverse, in a
// workload author's words and with the fix; the decoder's own text
// ("cannot unmarshal !!map into []config.Collection") names Go types.
func shapeError(n *yaml.Node, t reflect.Type, path string) *Error {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	var want, fix string
	switch {
	case t.Kind() == reflect.Slice && n.Kind != yaml.SequenceNode:
		want, fix = "a list", `write each entry on its own line starting with "- "`
	case t.Kind() == reflect.Struct && n.Kind != yaml.MappingNode:
		want, fix = "a mapping", "write it as key: value lines, indented under "+lastKey(path)+":"
	case t.Kind() <= reflect.Float64 || t.Kind() == reflect.String:
		if n.Kind == yaml.ScalarNode {
			return nil // the decoder says which value, and why
		}
		want, fix = goTypeName(t.String()), "give one value"
	default:
		return nil
	}
	got := map[yaml.Kind]string{yaml.MappingNode: "a mapping", yaml.SequenceNode: "a list", yaml.ScalarNode: "a single value"}[n.Kind]
	if n.Kind == yaml.ScalarNode {
		got = fmt.Sprintf("the value %q", n.Value)
	}
	return &Error{Kind: Invalid, Line: n.Line, Field: path, Msg: fmt.Sprintf("wrong type: %s, where %s is expected: %s", got, want, fix)}
}

// fractionError refuses a fraction where a whole number belongs
// (concurrency: 2.7), by the rule a flag and a variable follow: the
// decoder would cut it to 2 without a word. A whole number written as one
// (2.0, 1e3) is that number.
func fractionError(n *yaml.Node, t reflect.Type, path string) *Error {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!float" || t.Kind() < reflect.Int || t.Kind() > reflect.Uint64 {
		return nil
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
	if err == nil && v == math.Trunc(v) && !math.IsInf(v, 0) {
		return nil // whole: in range or not, the checks after decoding say
	}
	give := "a whole number"
	for _, s := range Settings {
		top, key, _ := strings.Cut(path, ".")
		if s.Range != nil && (top == "run" || top == "connection") && fieldKey(s.Flag) == key {
			give = s.Range.String() // a run or connection key: its flag's own range
		}
	}
	return &Error{Kind: Invalid, Line: n.Line, Field: path, Msg: fmt.Sprintf("%s is not a whole number: give %s", n.Value, give)}
}

func lastKey(path string) string {
	k := path[strings.LastIndex(path, ".")+1:]
	if i := strings.IndexByte(k, '['); i > 0 {
		k = k[:i]
	}
	return k
}

func yamlFields(t reflect.Type) map[string]reflect.StructField {
	fields := make(map[string]reflect.StructField, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		fields[name] = f
	}
	return fields
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// recordLines keeps the line of each collection, index and operation so that
// later checks (Validate, template compilation) can point at them.
func recordLines(root *yaml.Node, cfg *Config) {
	if n := mapValue(root, "collections"); n != nil && n.Kind == yaml.SequenceNode {
		for i, c := range n.Content {
			if i < len(cfg.Collections) {
				cfg.Collections[i].Line = c.Line
				if ix := mapValue(c, "indexes"); ix != nil && ix.Kind == yaml.SequenceNode {
					for j, in := range ix.Content {
						if j < len(cfg.Collections[i].Indexes) {
							cfg.Collections[i].Indexes[j].Line = in.Line
						}
					}
				}
			}
		}
	}
	if n := mapValue(root, "operations"); n != nil && n.Kind == yaml.SequenceNode {
		for i, c := range n.Content {
			if i < len(cfg.Operations) {
				cfg.Operations[i].Line = c.Line
			}
		}
	}
	if n := mapValue(root, "watchers"); n != nil && n.Kind == yaml.SequenceNode {
		for i, c := range n.Content {
			if i < len(cfg.Watchers) {
				cfg.Watchers[i].Line = c.Line
			}
		}
	}
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// intRange names the values a Go integer type of the configuration holds.
func intRange(t string) string {
	bits := 64
	for _, b := range []string{"8", "16", "32"} {
		if strings.HasSuffix(t, b) {
			bits, _ = strconv.Atoi(b)
		}
	}
	if strings.HasPrefix(t, "uint") {
		return fmt.Sprintf("a whole number from 0 to %d", uint64(1)<<bits-1)
	}
	return fmt.Sprintf("a whole number from %d to %d", -(int64(1) << (bits - 1)), int64(1)<<(bits-1)-1)
}

// readBounded reads a workload file, at most one byte past
// MaxWorkloadBytes: enough for Parse to refuse a file too big, without
// reading all of it.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxWorkloadBytes+1))
}
