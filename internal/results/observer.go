package results

// ClientTelemetry is what mongoload itself asked the server besides the
// workload during a run (client.telemetry): serverStatus every interval,
// replSetGetStatus, hello, the server's context, collection statistics,
// explain. Each has its own connection, never the workload's, but the
// server does their work beside the workload's: a heavy one inside the
// measured phase can move the figures, and Warning then says so.
type ClientTelemetry struct {
	Commands []TelemetryCommand `json:"commands"`
	// MeasuredMs is the time the commands sent during the measured phase
	// took, in all, and MeasuredShare that over the phase's length.
	MeasuredMs    float64 `json:"measuredMs"`
	MeasuredShare float64 `json:"measuredShare"`
	Warning       string  `json:"warning,omitempty"`
}

// TelemetryCommand is one command in one phase: "measured" (during the
// measured phase) or "outside" (the context before it, the warm-up, the
// statistics and explain after it).
type TelemetryCommand struct {
	Name    string  `json:"name"`
	Phase   string  `json:"phase"`
	Count   int64   `json:"count"`
	TotalMs float64 `json:"totalMs"`
	MaxMs   float64 `json:"maxMs"`
}
