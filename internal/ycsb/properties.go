package ycsb

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

// Properties is a set of YCSB properties, each with where it was last set,
// in the order they first appeared. Later settings override earlier ones,
// as YCSB's -P files do each other and -p does them all.
type Properties struct {
	byKey map[string]*Property
	order []string
}

// Property is one property and where it was set.
type Property struct {
	Key, Value string
	File       string // a property file, or "-p" for the command line
	Line       int    // line in File where the entry starts; 0 for -p
}

// where locates p for messages: "workloada:17" or "-p".
func (p *Property) where() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return p.File
}

// NewProperties returns an empty set.
func NewProperties() *Properties { return &Properties{byKey: map[string]*Property{}} }

// Set sets key to value, remembering where.
func (ps *Properties) Set(key, value, file string, line int) {
	if p, ok := ps.byKey[key]; ok {
		p.Value, p.File, p.Line = value, file, line
		return
	}
	ps.byKey[key] = &Property{Key: key, Value: value, File: file, Line: line}
	ps.order = append(ps.order, key)
}

// Get returns the property named key.
func (ps *Properties) Get(key string) (*Property, bool) {
	p, ok := ps.byKey[key]
	return p, ok
}

// All returns every property in the order of first appearance.
func (ps *Properties) All() []*Property {
	out := make([]*Property, len(ps.order))
	for i, k := range ps.order {
		out[i] = ps.byKey[k]
	}
	return out
}

// LoadFile reads a YCSB property file (such as workloads/workloada) into ps.
func (ps *Properties) LoadFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			err = pe.Err
		}
		return &config.Error{Kind: config.Unreadable, File: path, Msg: fmt.Sprintf("cannot read YCSB property file: %v", err)}
	}
	return ps.Parse(data, path)
}

// Parse reads property file content in the format of Java's
// Properties.load, which YCSB uses: "#" and "!" start comment lines; a key
// ends at the first unescaped "=", ":" or blank, and the value is the rest
// of the line; a line ending in an odd number of backslashes continues on
// the next; \t, \n, \r, \f and \uXXXX are escapes and a backslash before
// any other character stands for that character. Unlike Java, values are
// trimmed of trailing blanks, which YCSB would otherwise choke on in
// numbers.
func (ps *Properties) Parse(data []byte, name string) error {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		start := i + 1
		line := strings.TrimLeft(lines[i], " \t\f")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		for continues(line) && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + strings.TrimLeft(lines[i], " \t\f")
		}
		if continues(line) {
			line = line[:len(line)-1] // a continuation at the end of the file
		}
		key, value, err := splitEntry(line)
		if err != nil {
			return &config.Error{Kind: config.Syntax, File: name, Line: start, Msg: err.Error()}
		}
		ps.Set(key, strings.TrimRight(value, " \t\f"), name, start)
	}
	return nil
}

// continues reports whether line ends in an odd number of backslashes.
func continues(line string) bool {
	n := 0
	for i := len(line) - 1; i >= 0 && line[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitEntry splits a logical line into its unescaped key and value.
func splitEntry(line string) (key, value string, err error) {
	end := len(line)
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '\\' {
			i++
			continue
		}
		if c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f' {
			end = i
			break
		}
	}
	rest := strings.TrimLeft(line[end:], " \t\f")
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], " \t\f")
	}
	if key, err = unescape(line[:end]); err != nil {
		return "", "", err
	}
	value, err = unescape(rest)
	return key, value, err
}

// unescape resolves the escapes of Java property files.
func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+5 > len(s) {
				return "", fmt.Errorf(`malformed \uXXXX escape in %q: it needs four hexadecimal digits`, s)
			}
			r, err := strconv.ParseUint(s[i+1:i+5], 16, 16)
			if err != nil {
				return "", fmt.Errorf(`malformed \uXXXX escape in %q: it needs four hexadecimal digits`, s)
			}
			b.WriteRune(rune(r))
			i += 4
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// SetArg sets one -p argument, "key=value".
func (ps *Properties) SetArg(arg string) error {
	key, value, ok := strings.Cut(arg, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return &config.Error{Kind: config.Invalid, Field: "-p", Msg: fmt.Sprintf("%q is not a property: write -p name=value, for example -p recordcount=100000", arg)}
	}
	ps.Set(key, strings.TrimSpace(value), "-p", 0)
	return nil
}
