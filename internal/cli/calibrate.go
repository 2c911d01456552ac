package cli

import (
	"github.com/spf13/pflag"
)

// addCalibrationFlag is --target-server-cpu, for sweep and findmax.
func addCalibrationFlag(fs *pflag.FlagSet) *string {
	return fs.String("target-server-cpu", "", "also find the load at which the server's CPU sits at this share of its cores, such as 80%, and record it")
}

// calibrationTarget reads --target-server-cpu; 0 when not given.
func calibrationTarget(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	return parseShare("target-server-cpu", s)
}
