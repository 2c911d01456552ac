package results

// Partial reports whether an interval (or a telemetry sample) of dt
// seconds, in a series whose intervals are nominal seconds long, is one the
// run's end cut short: its rates, over a moment in which the workers were
// winding down, would draw a false dip or spike at the end of a chart. The
// one rule for every chart over time (the HTML report's, the sweep
// timeline's, the live dashboard's) and the live line; totals and the
// results file still count such an interval.
func Partial(dt, nominal float64) bool { return dt < nominal/2 }

// Charted returns the intervals of a series that a chart over time shows
// (or a peak is taken from): every one but the Partial ones, taking the
// longest as the nominal length.
func Charted(series []IntervalSummary) []IntervalSummary {
	var nominal float64
	for _, iv := range series {
		nominal = max(nominal, iv.Dt)
	}
	out := make([]IntervalSummary, 0, len(series))
	for _, iv := range series {
		if !Partial(iv.Dt, nominal) {
			out = append(out, iv)
		}
	}
	return out
}

// ChartSamples returns the telemetry samples a chart over time shows:
// every one but the Partial ones (the final sample, taken when the phase
// ends, usually is).
func (s *Server) ChartSamples() []ServerSample {
	out := make([]ServerSample, 0, len(s.Samples))
	for _, sm := range s.Samples {
		if !Partial(sm.Dt, s.IntervalSeconds) {
			out = append(out, sm)
		}
	}
	return out
}
