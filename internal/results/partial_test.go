package results

import (
	"slices"
	"testing"
)

// TestCharted: a chart over time leaves out an interval the run's end cut
// to less than half the others (its rate would be a false dip or spike),
// and only such an interval.
func TestCharted(t *testing.T) {
	for _, tt := range []struct {
		name string
		dts  []float64
		want []float64 // the Dt of the intervals kept
	}{
		{"a last interval cut to a moment", []float64{1, 1, 1, 0.05}, []float64{1, 1, 1}},
		{"a last interval cut short, over half", []float64{1, 1, 0.6}, []float64{1, 1, 0.6}},
		{"just under half", []float64{1, 1, 0.49}, []float64{1, 1}},
		{"whole intervals only", []float64{0.25, 0.25}, []float64{0.25, 0.25}},
		{"a run shorter than one interval", []float64{0.3}, []float64{0.3}},
		{"no interval", nil, []float64{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var series []IntervalSummary
			for i, dt := range tt.dts {
				series = append(series, IntervalSummary{T: float64(i) + dt, Dt: dt})
			}
			var got []float64
			for _, iv := range Charted(series) {
				got = append(got, iv.Dt)
			}
			if got == nil {
				got = []float64{}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Charted(%v) kept %v; want %v", tt.dts, got, tt.want)
			}
		})
	}
	// Server samples: the nominal length is the sampling interval asked for.
	s := &Server{IntervalSeconds: 1, Samples: []ServerSample{{T: 1, Dt: 1}, {T: 2, Dt: 1}, {T: 2.1, Dt: 0.1}}}
	if got := s.ChartSamples(); len(got) != 2 || got[1].T != 2 {
		t.Errorf("ChartSamples kept %+v; want the two whole samples", got)
	}
}
