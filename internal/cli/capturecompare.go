package cli

import "errors"

func compareCaptures(args []string, o IO) error {
	return withCode(ExitUsage, errors.New("not yet"))
}
