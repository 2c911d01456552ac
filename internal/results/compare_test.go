package results

import (
	"slices"
	"testing"
)

func TestMeetingAll(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name     string
		meets    []*bool
		baseline int
		want     []string
	}{
		{"no objectives", []*bool{nil, nil, nil}, 0, nil},
		{"the baseline is never judged", []*bool{&yes, &no, &yes}, 0, []string{"c"}},
		{"baseline in the middle", []*bool{&yes, &yes, &no}, 1, []string{"a"}},
		{"none meets all", []*bool{nil, &no, &no}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Comparison{Baseline: tt.baseline}
			for i, m := range tt.meets {
				c.Inputs = append(c.Inputs, ComparedInput{Label: string(rune('a' + i)), MeetsAll: m})
			}
			if got := c.MeetingAll(); !slices.Equal(got, tt.want) {
				t.Errorf("MeetingAll() = %v, want %v", got, tt.want)
			}
		})
	}
}
