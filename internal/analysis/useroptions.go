package analysis

import (
	"errors"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

// The ranges of compare's user options (config's one rule for numbers).
var (
	// UsersRange is the users the baseline serves.
	UsersRange = config.Range{Min: 0, AboveMin: true, Max: config.MaxCount, What: "a number of users"}
	// GrowthRange is a growth stage in users.
	GrowthRange = config.Range{Min: 0, AboveMin: true, Max: config.MaxCount, What: "a number of users"}
	// HeadroomRange is the spare capacity a stage needs: 0 to ten times.
	HeadroomRange = config.Range{Min: 0, Max: 10, What: "a share of spare capacity (20% or 0.2)"}
)

// ParseUserOptions reads compare's --users, --growth and --headroom; false
// when users is not given (nor growth, which needs it). Every value out of
// its range is refused at once (config.Errors, exit 12).
func ParseUserOptions(users, growth, headroom string) (UserOptions, bool, error) {
	var o UserOptions
	if strings.TrimSpace(users) == "" || strings.TrimSpace(users) == "0" {
		if growth != "" {
			return o, false, errors.New("--growth needs --users: the number of users the baseline serves, such as --users 25000")
		}
		return o, false, nil
	}
	var es config.Errors // every bad value at once: exit 12, naming the flag
	var err error
	o.Users, err = config.ParseNumber(config.FlagSource("users"), users, UsersRange)
	es.Add(err)
	for _, g := range strings.Split(growth, ",") {
		if g = strings.TrimSpace(g); g == "" {
			continue
		}
		v, err := config.ParseNumber(config.FlagSource("growth"), g, GrowthRange)
		es.Add(err)
		o.Growth = append(o.Growth, v)
	}
	v, err := config.ParseShareFrom(config.FlagSource("headroom"), headroom, HeadroomRange)
	es.Add(err)
	if err := es.Err(); err != nil {
		return o, false, err
	}
	o.Headroom = v
	return o, true, nil
}
