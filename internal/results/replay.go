package results

// Replay is set on the result of mongoload replay: what the trace held and
// covers, what was sent, and how far behind the captured schedule the
// replay sent (docs/replay.md).
type Replay struct {
	Trace string `json:"trace"`
	Speed string `json:"speed"` // "1", "2", ... or "max"
	Loops int    `json:"loops"`
	// Entries are the operations that read from the trace, Sent those a
	// replay sends (per loop), NotSent the others by why.
	Entries int64            `json:"entries"`
	Sent    int64            `json:"sent"`
	NotSent map[string]int64 `json:"notSent,omitempty"`
	// Damage is what of the file did not read ("" when it all did).
	Damage string `json:"damage,omitempty"`
	// Complete: the source recorded every operation of its window;
	// otherwise the replay is of a sample, and Coverage says which.
	Complete bool   `json:"complete"`
	Coverage string `json:"coverage"`
	// CapturedSeconds is the captured schedule's span, first start to
	// last; ScheduledSeconds the replay's (divided by the speed, loops
	// included).
	CapturedSeconds  float64 `json:"capturedSeconds"`
	ScheduledSeconds float64 `json:"scheduledSeconds,omitempty"`
	// SendLag is how late the replay sent each operation after its
	// scheduled time (ms), over the run; SendLagByInterval the largest
	// lag of each interval, in the order of Intervals.
	SendLag           *Percentiles `json:"sendLagMs,omitempty"`
	SendLagByInterval []float64    `json:"sendLagMsByInterval,omitempty"`
	// Late counts operations sent more than LateAfterMs after their
	// time; Dropped those not sent at all (every in-flight place taken).
	Late        int64   `json:"late"`
	LateAfterMs float64 `json:"lateAfterMs"`
	Dropped     int64   `json:"dropped"`
	// KeptPace is false when the replay fell behind the captured pace;
	// Behind says how and why, in one sentence.
	KeptPace bool   `json:"keptPace"`
	Behind   string `json:"behind,omitempty"`
}

// Percentiles are a distribution's summary, in milliseconds.
type Percentiles struct {
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}
