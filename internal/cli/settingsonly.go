package cli

import (
	"slices"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/run"
)

// resolveSettings is the configuration of a command that runs no workload
// of its own (capture, replay, verify): the settings it takes (and the
// password, which only the environment gives), by flag or variable, each
// checked as run checks it (config.ValidateSettings) before the command
// reads, connects or creates anything. Variables of settings it does not
// take are not its own and are left alone.
func resolveSettings(fs *pflag.FlagSet, o IO, settings []string) (*config.Config, error) {
	src := sources(fs, o)
	src.Only, src.Check = append(slices.Clip(settings), "password"), run.CheckConnection
	return config.Resolve(src)
}
