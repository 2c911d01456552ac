package analysis

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseUserOptions reads compare's --users, --growth and --headroom; false
// when users is 0 (and growth not given, which needs it).
func ParseUserOptions(users float64, growth, headroom string) (UserOptions, bool, error) {
	o := UserOptions{Users: users}
	if users == 0 {
		if growth != "" {
			return o, false, errors.New("--growth needs --users: the number of users the baseline serves, such as --users 25000")
		}
		return o, false, nil
	}
	for _, g := range strings.Split(growth, ",") {
		if g = strings.TrimSpace(g); g == "" {
			continue
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(g, "_", ""), 64)
		if err != nil {
			return o, false, fmt.Errorf("--growth %q: %q is not a number of users", growth, g)
		}
		o.Growth = append(o.Growth, v)
	}
	h := strings.TrimSpace(headroom)
	v, err := strconv.ParseFloat(strings.TrimSuffix(h, "%"), 64)
	if err != nil {
		return o, false, fmt.Errorf("--headroom %q: write a share such as 20%%", headroom)
	}
	if strings.HasSuffix(h, "%") {
		v /= 100
	}
	o.Headroom = v
	return o, true, nil
}
