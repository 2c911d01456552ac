package cli

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/config"
)

// numbers.go: the range of every numeric flag a command declares itself
// (the settings carry theirs in config.Settings). parse checks each such
// flag given against its range through config's one rule, so --start Inf
// or --users 1e308 is refused, exit 12, before anything runs. A numeric
// flag missing here is still held to finite numbers, and
// TestEveryNumericFlag fails until its range is declared.

// anyFinite is the least rule: a finite number.
var anyFinite = config.Range{Min: -math.MaxFloat64, Max: math.MaxFloat64, What: "a finite number"}

// flagRanges: a flag name means one thing in every command that has it.
var flagRanges = map[string]config.Range{
	// findmax
	"start":      config.PositiveRateRange, // left out: estimated from a closed-loop run
	"factor":     {Min: 1, AboveMin: true, Max: 100, What: "the climb's multiplier"},
	"max-probes": {Min: 2, Max: 1000, Whole: true, What: "a number of probes"},
	// sweep and findmax
	"client-cpu-limit": {Min: 0, AboveMin: true, Max: 1, What: "a share of the cores (0.8)"},
	"linear-gain":      {Min: 0, AboveMin: true, Max: 1.5, What: "a share of the proportional gain (0.8)"},
	"knee-gain":        {Min: 0, AboveMin: true, Max: 1.5, What: "a share of the proportional gain (0.3)"},
	"latency-knee":     {Min: 1, AboveMin: true, Max: 1000, What: "a factor (3)"},
	"plateau":          {Min: 0, AboveMin: true, Max: 0.9999, What: "a share below 1 (0.1)"},
	"degraded-drop":    {Min: 0, AboveMin: true, Max: 0.9999, What: "a share below 1 (0.04)"},
	"oversaturated":    {Min: 1, AboveMin: true, Max: 1000, What: "a factor (3)"},
	// replay and ab
	"loop":   {Min: 1, Max: config.MaxCount, Whole: true, What: "a number of passes"},
	"rounds": roundsRange,
	"verify": verifyRange,
	// capture
	"rate":      config.RateRange,
	"scale":     config.FactorRange,
	"min-share": {Min: 0, Max: 0.9999, What: "a share below 1"},
	"sample":    {Min: 1, Max: 1_000_000, Whole: true, What: "a number of documents"},
	"slowms":    {Min: -1, Max: 86_400_000, Whole: true, What: "milliseconds (-1: level 2)"},
}

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
	return anyFinite, true
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
