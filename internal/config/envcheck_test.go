package config

import (
	"strings"
	"testing"
)

// TestMisspeltVariables: a variable a letter or two away from one that
// mongoload reads is named with it; the right ones, other programs'
// variables and names far from any are left alone.
func TestMisspeltVariables(t *testing.T) {
	got := MisspeltVariables([]string{
		"MONGOLOAD_CONCURENCY=4",        // a letter missing
		"MONGOLOAD_RATE_SACLE=2",        // two letters swapped
		"MONGOLOAD_DOCUMENT=10",         // load's own, singular
		"MONGOLOAD_CONCURRENCY=4",       // right
		"MONGOLOAD_TEST_URI=mongodb://", // the test harness's
		"MONGOLOAD_REPO=/src",           // far from any
		"MONGOLOAD_SPEED=2",             // replay's --speed, read (was: "did you mean MONGOLOAD_SEED?")
		"MONGOLOAD_LOOP=3",              // replay's --loop, read
		"MONGOLOAD_SLOWMS=5",            // capture's --slowms, no variable's (was: "did you mean MONGOLOAD_SLOW?")
		"PATH=/bin", "CONCURENCY=1",
	})
	want := []string{
		"MONGOLOAD_CONCURENCY is not a mongoload variable and is ignored (did you mean MONGOLOAD_CONCURRENCY?)",
		"MONGOLOAD_DOCUMENT is not a mongoload variable and is ignored (did you mean MONGOLOAD_DOCUMENTS?)",
		"MONGOLOAD_RATE_SACLE is not a mongoload variable and is ignored (did you mean MONGOLOAD_RATE_SCALE?)",
		"MONGOLOAD_SLOWMS is not a mongoload variable and is ignored: --slowms is given on the command line only",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
