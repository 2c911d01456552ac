package config

import (
	"strings"
	"testing"
	"time"
)

func TestParseFault(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Fault
		err  string
	}{
		{"at 30s: stepdown", Fault{At: 30 * time.Second, Action: FaultStepDown, For: DefaultStepDownFor}, ""},
		{" at 1m:stepdown 20s ", Fault{At: time.Minute, Action: FaultStepDown, For: 20 * time.Second}, ""},
		{"30s: stepdown", Fault{}, `must start with "at"`},
		{"at 30s stepdown", Fault{}, `no ":"`},
		{"at soon: stepdown", Fault{}, "not a duration"},
		{"at -1s: stepdown", Fault{}, "not a duration"},
		{"at 1s: reboot", Fault{}, "the only action is stepdown"},
		{"at 1s: stepdown 10ms", Fault{}, "at least 1s"},
		{"at 1s: stepdown 10s now", Fault{}, "too many words"},
	} {
		got, err := ParseFault(tc.in)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%q: %+v, %v; want %+v", tc.in, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), `"at 30s: stepdown"`)):
			t.Errorf("%q: error %v; want one naming %q and the form to use", tc.in, err, tc.err)
		}
		if tc.err == "" {
			if again, err := ParseFault(got.String()); err != nil || again != got {
				t.Errorf("%q: String %q does not read back", tc.in, got.String())
			}
		}
	}
}
