package results

// Watcher is one change-stream consumer over the measured phase: its
// streams, the events they received (each stream counts each event it
// received: three streams on one collection count each insert three
// times), and each event's delivery lag, from the commit (or the
// document's LagFrom field) to its receipt.
type Watcher struct {
	Name    string `json:"name"`
	Target  string `json:"target"` // "db.coll", or "db" for a database
	Streams int    `json:"streams"`
	Events  int64  `json:"events"`
	// EventsPerSecond is Events over the measured phase's length.
	EventsPerSecond float64 `json:"eventsPerSecond"`
	// Resumes counts the streams reopened from their resume token after
	// an error (a dropped connection, a failover).
	Resumes int64 `json:"resumes"`
	// LagFrom is what the lag is measured from: "commit" (the event's
	// wall time, to the millisecond) or "field NAME" (a date the workload
	// wrote into the document).
	LagFrom string   `json:"lagFrom"`
	Lag     WatchLag `json:"lag"`
	// AfterEnd counts the events received after the measured phase ended,
	// while the streams caught up with the run's last writes (counted in
	// Events). Undrained: they had not caught up when the wait for them
	// ended, so Events lacks some.
	AfterEnd  int64 `json:"afterEnd,omitempty"`
	Undrained bool  `json:"undrained,omitempty"`
	// FallingBehind: the lag grew through the run (the consumer does not
	// keep up); Verdict says it in words.
	FallingBehind bool   `json:"fallingBehind,omitempty"`
	Verdict       string `json:"verdict,omitempty"`
	// Failed is the error that ended one of its streams for good (one no
	// resume gets past): its figures stop there.
	Failed string `json:"failed,omitempty"`
}

// WatchLag is a watcher's delivery lag in milliseconds, from an HDR
// histogram with the operations' geometry; Count equals the events.
// Negative counts the events whose lag came out below zero (the
// client's and the server's clocks differ), recorded as 0.
type WatchLag struct {
	Count    int64   `json:"count"`
	P50      float64 `json:"p50"`
	P95      float64 `json:"p95"`
	P99      float64 `json:"p99"`
	P999     float64 `json:"p999"`
	Max      float64 `json:"max"`
	Mean     float64 `json:"mean"`
	Negative int64   `json:"negative,omitempty"`
}

// WatcherInterval is one watcher during one interval.
type WatcherInterval struct {
	Name   string  `json:"name"`
	Events int64   `json:"events"`
	LagP50 float64 `json:"lagP50"`
	LagP99 float64 `json:"lagP99"`
	LagMax float64 `json:"lagMax"`
}
