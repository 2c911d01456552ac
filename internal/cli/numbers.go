package cli

import (
	"fmt"

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

// flagNumbers checks every numeric flag given on fs against its range
// and returns every refusal at once (exit 12).
func flagNumbers(fs *pflag.FlagSet) config.Errors {
	var given []config.GivenFlag
	fs.Visit(func(f *pflag.Flag) {
		given = append(given, config.GivenFlag{Name: f.Name, Type: f.Value.Type(), Value: f.Value.String()})
	})
	return config.CheckFlagNumbers(given)
}

// badValue is the refusal of a value of a command's own flag that is not
// a number of a pflag type (a share such as "5%", a duration, a list).
func badValue(flag, format string, args ...any) *config.Error {
	return config.FlagSource(flag).Refuse(fmt.Errorf(format, args...))
}
