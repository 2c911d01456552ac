package config

import (
	"errors"
	"fmt"
	"strings"
)

// Kind classifies a configuration problem; the CLI maps each kind to its own exit code.
type Kind uint8

// The kinds of configuration problems.
const (
	Invalid          Kind = iota // a value is out of range or inconsistent
	Syntax                       // the file is not well-formed YAML or JSON
	UnknownKey                   // a key that no field of the configuration has
	UnknownGenerator             // a template names a generator that does not exist
	UnknownOperation             // an operation type that does not exist
	BadURI                       // the connection URI cannot be parsed
	Unreadable                   // the workload file cannot be read
	Usage                        // a command line that asks for nothing, or for two things at once
)

// Error is one configuration problem, located as precisely as possible.
type Error struct {
	Kind  Kind
	File  string // workload file, "" for flags and environment
	Line  int    // 1-based line in File, 0 if unknown
	Field string // dotted path such as "operations[2].weight", "" if unknown
	Msg   string // what is wrong and how to fix it
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errorf builds an Error of the given kind at a line (0 if unknown).
func Errorf(kind Kind, line int, format string, args ...any) *Error {
	return &Error{Kind: kind, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Errors is every problem found at once, in file order.
type Errors []*Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Err returns nil for no problems, else es itself.
func (es Errors) Err() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// KindOf returns the kind of the first configuration problem in err, and
// false when err carries none.
func KindOf(err error) (Kind, bool) {
	var es Errors
	if errors.As(err, &es) && len(es) > 0 {
		return es[0].Kind, true
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind, true
	}
	return 0, false
}

// WithFile sets File on every problem in err that has none, and returns err.
func WithFile(err error, file string) error {
	var es Errors
	if errors.As(err, &es) {
		for _, e := range es {
			if e.File == "" {
				e.File = file
			}
		}
		return err
	}
	var e *Error
	if errors.As(err, &e) && e.File == "" {
		e.File = file
	}
	return err
}
