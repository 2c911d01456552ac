package results

import "testing"

func TestCPUSeconds(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		name string
		cpu  *CPU
		want float64
		ok   bool
	}{
		{"not sampled", nil, 0, false},
		{"neither reported", &CPU{}, 0, false},
		{"user and system add up", &CPU{UserSeconds: f(0.75), SystemSeconds: f(0.25)}, 1, true},
		{"user alone", &CPU{UserSeconds: f(0.5)}, 0.5, true},
		{"system alone", &CPU{SystemSeconds: f(0.125)}, 0.125, true},
	} {
		got, ok := c.cpu.Seconds()
		if got != c.want || ok != c.ok {
			t.Errorf("%s: Seconds() = %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
