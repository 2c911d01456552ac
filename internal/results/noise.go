package results

import "fmt"

// Interference is the host's CPU during a run's measured phase that
// neither mongoload nor the server (where it runs on this host) used:
// other work competing with both, which moves a capacity answer with the
// neighbours. Figures are in cores, from /proc/stat and the two
// processes' own /proc/PID/stat (Linux).
type Interference struct {
	Cores  int     `json:"cores"`  // the host's CPUs
	Busy   float64 `json:"busy"`   // cores busy on the whole host
	Client float64 `json:"client"` // mongoload's own
	// Server is the CPU of the process listening on the URI's port on this
	// host, ServerProcess which one ("pid 123 (secantusd-rs)"); absent
	// when the server is not on this host (nothing of it is subtracted).
	Server        *float64 `json:"server,omitempty"`
	ServerProcess string   `json:"serverProcess,omitempty"`
	// Other is Busy less Client and Server (never below 0), OtherShare
	// that over Cores: the interference.
	Other      float64 `json:"other"`
	OtherShare float64 `json:"otherShare"`
	// Steal is the CPU the hypervisor gave to other guests, in cores, and
	// StealShare that over Cores (0 where the host reports none).
	Steal      float64 `json:"steal"`
	StealShare float64 `json:"stealShare"`
	// Cores the server and mongoload may run on (their CPU affinity), when
	// read: other work elsewhere does not slow the probe. Near is the other
	// work on those cores, in cores, NearShare that over their number: what
	// the threshold is judged by when they are fewer than the host's.
	ServerCores string   `json:"serverCores,omitempty"`
	ClientCores string   `json:"clientCores,omitempty"`
	Near        *float64 `json:"near,omitempty"`
	NearShare   *float64 `json:"nearShare,omitempty"`
	NearCores   string   `json:"nearCores,omitempty"`
	Note        string   `json:"note,omitempty"`
}

// Judged is the share of other work the probe felt: on the cores the
// server and mongoload run on when they are fewer than the host's, else
// on the whole host; and the cores it was measured on ("" for all).
func (in *Interference) Judged() (share float64, cores string) {
	if in.NearShare != nil {
		return *in.NearShare, in.NearCores
	}
	return in.OtherShare, ""
}

// Reliability says how far a capacity answer (findmax's rate, a sweep's
// verdicts, a calibration) can be trusted: false when other work on the
// host or probes that disagree could have moved it, with one sentence
// saying why (docs/capacity.md#how-sure-the-answer-is).
type Reliability struct {
	// Interference is the most other work measured during a probe that
	// decided the answer, as a share of the host's cores, Steal the most
	// steal; Probe is that probe's number (1-based), 0 if none measured.
	Interference float64 `json:"interference"`
	// Cores is where Interference was measured: the server's and
	// mongoload's CPUs when fewer than the host's ("0-1"), "" for all.
	Cores string  `json:"cores,omitempty"`
	Steal float64 `json:"steal"`
	Probe int     `json:"probe,omitempty"`
	// Unmeasured: the host's CPU could not be read (not Linux): the
	// interference is unknown, which alone does not make it unreliable.
	Unmeasured bool `json:"unmeasured,omitempty"`
	// Disagreements are the rates whose probes disagreed, or failed below
	// a rate that passed: the noise the search saw in its own probes.
	Disagreements []Disagreement `json:"disagreements,omitempty"`
	// Repeats are the rates probed more than once, with how their probes
	// agreed and how far their p99s spread: the search's own measure of
	// its noise, at the answer and around it.
	Repeats []Disagreement `json:"repeats,omitempty"`
	// Stalled counts the probes in which the server stopped answering and
	// came back (retried, never judged).
	Stalled int `json:"stalled,omitempty"`
	// Thresholds: the share of the cores other work may take, and steal.
	MaxInterference float64 `json:"maxInterference"`
	MaxSteal        float64 `json:"maxSteal"`
}

// Disagreement is a rate whose probes did not tell one story.
type Disagreement struct {
	Rate   float64 `json:"rate"`
	Passed int     `json:"passed"`
	Failed int     `json:"failed"`
	// P99Spread is the highest p99 over the lowest among its probes (1
	// for one probe; 0 when a p99 was 0).
	P99Spread float64 `json:"p99Spread,omitempty"`
	Text      string  `json:"text"`
}

// NoiseText is a run's interference for a table cell: the other work's
// share of the host's CPU, and the steal where there was any ("34%",
// "12% +3% steal"); "-" where it was not measured.
func NoiseText(res *Result) string {
	if res == nil || res.Interference == nil {
		return "-"
	}
	in := res.Interference
	s := fmt.Sprintf("%.0f%%", 100*in.OtherShare)
	if share, cores := in.Judged(); cores != "" {
		s += fmt.Sprintf(" (%.0f%% on CPU %s)", 100*share, cores)
	}
	if in.StealShare >= 0.01 {
		s += fmt.Sprintf(" +%.0f%% steal", 100*in.StealShare)
	}
	return s
}

// ReliableText is a reliability flag in one word: "yes", "NO", or ""
// when it was not assessed (an older file).
func ReliableText(r *bool) string {
	switch {
	case r == nil:
		return ""
	case *r:
		return "yes"
	}
	return "NO"
}
