package mongodb

import (
	"sort"
	"sync"
	"time"
)

// CommandStat is how often one command mongoload sends beside the
// workload (serverStatus, replSetGetStatus, hello, the server's context,
// collection statistics, explain) ran in one phase of a run and how long
// it took, replies and failures alike.
type CommandStat struct {
	Phase string // as set by CommandPhase: "measured", "outside"
	Name  string
	Count int64
	Total time.Duration
	Max   time.Duration
}

// tally counts the commands of a client and of the clients opened from
// it (Monitor, Inspector): one count for everything mongoload asks the
// server besides the workload, by phase.
type tally struct {
	mu    sync.Mutex
	phase string
	by    map[[2]string]CommandStat
}

func (t *tally) add(name string, d time.Duration) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.by == nil {
		t.by = map[[2]string]CommandStat{}
	}
	k := [2]string{t.phase, name}
	s := t.by[k]
	s.Phase, s.Name = t.phase, name
	s.Count++
	s.Total += d
	s.Max = max(s.Max, d)
	t.by[k] = s
}

// ResetCommands forgets the commands counted so far and starts counting
// them under phase: a run's count starts with the run.
func (cl *Client) ResetCommands(phase string) {
	if t := cl.tally; t != nil {
		t.mu.Lock()
		t.by, t.phase = nil, phase
		t.mu.Unlock()
	}
}

// CommandPhase counts the commands from now on under phase.
func (cl *Client) CommandPhase(phase string) {
	if t := cl.tally; t != nil {
		t.mu.Lock()
		t.phase = phase
		t.mu.Unlock()
	}
}

// Commands are the commands sent beside the workload since ResetCommands,
// by phase and name, by this client and those opened from it.
func (cl *Client) Commands() []CommandStat {
	t := cl.tally
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]CommandStat, 0, len(t.by))
	for _, v := range t.by {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Phase != out[j].Phase {
			return out[i].Phase < out[j].Phase
		}
		return out[i].Name < out[j].Name
	})
	return out
}
