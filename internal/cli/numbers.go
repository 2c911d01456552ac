package cli

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/config"
)

// numbers.go: parse checks every numeric flag a command declares itself
// against its range (config.FlagRanges; the settings carry theirs in
// config.Settings) through config's one rule, so --start Inf or --users
// 1e308 is refused, exit 12, before anything runs. A numeric flag with no
// range declared is still held to finite numbers, and
// TestEveryNumericFlag fails until its range is declared.

// flagRanges are config's: a flag name means one thing in every command.
var flagRanges = config.FlagRanges

// numericTypes are pflag's types that hold a number.
var numericTypes = map[string]bool{
	"float64": true, "float32": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
}

// flagRange is the range of a numeric flag of fs, and whether it is one.
func flagRange(f *pflag.Flag) (config.Range, bool) {
	if !numericTypes[f.Value.Type()] {
		return config.Range{}, false
	}
	if r, ok := flagRanges[f.Name]; ok {
		return r, true
	}
	return config.AnyFinite, true
}

// flagNumbers checks every numeric flag given on fs against its range and
// returns every refusal at once (exit 12).
func flagNumbers(fs *pflag.FlagSet) config.Errors {
	var es config.Errors
	var names []string
	fs.Visit(func(f *pflag.Flag) { names = append(names, f.Name) })
	sort.Strings(names) // a stable order for the lines
	for _, name := range names {
		f := fs.Lookup(name)
		if r, ok := flagRange(f); ok {
			// pflag has parsed it and writes it back exactly: "NaN", "+Inf", "1e+308"
			v, err := strconv.ParseFloat(f.Value.String(), 64)
			if err != nil {
				es.Add(badValue(name, "%q is not a number: give %s", f.Value.String(), r))
				continue
			}
			es.Add(config.CheckNumber(config.FlagSource(name), v, r))
		}
	}
	return es
}

// badValue is the refusal of a value of a command's own flag that is not
// a number of a pflag type (a share such as "5%", a duration, a list).
func badValue(flag, format string, args ...any) *config.Error {
	return config.FlagSource(flag).Refuse(fmt.Errorf(format, args...))
}
