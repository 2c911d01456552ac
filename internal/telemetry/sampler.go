package telemetry

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// Source answers the sampler's commands. internal/mongodb's monitoring
// client implements it over a connection of its own, so that sampling never
// waits behind the workload for a connection, nor the workload behind it.
type Source interface {
	ServerStatus(ctx context.Context) (bson.Raw, error)
	ReplSetGetStatus(ctx context.Context) (bson.Raw, error)
}

// Options tune a Sampler.
type Options struct {
	// Interval is the time between samples; the first (the baseline) is
	// taken when Start is called.
	Interval time.Duration
	// OnSample, if set, receives each sample on the sampler's goroutine.
	OnSample func(results.ServerSample)
	// Timeout bounds each command; 0 means the larger of Interval and 2 s.
	Timeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// ProcessCPU, if set, reads the CPU times of the server process pid,
	// which has run for up, from the operating system, for a server on
	// this host whose serverStatus reports none (extra_info user and
	// system time); source names where, such as "/proc/PID/stat".
	ProcessCPU func(pid int64, up time.Duration) (user, system time.Duration, source string, err error)
}

// Sampler polls a Source every interval during the measured phase and keeps
// the deltas. Start, Stop and Result may be called from any goroutine, in
// that order; Result after Stop.
type Sampler struct {
	src     Source
	o       Options
	startMu sync.Mutex
	started bool
	stop    chan struct{}
	done    chan struct{}

	// Written by the sampling goroutine, read after done is closed.
	phaseStart  time.Time
	first, last *Status
	startLag    time.Duration
	samples     []results.ServerSample
	seen        map[string]bool
	between     int64 // commands sent after the baseline and before the final serverStatus
	replOn      bool
	replSeen    bool
	replNote    string
	failures    int
	lastErr     error
	finalErr    error
	restarts    int
	unavailable string
	cpuSource   string // where the CPU came from, "" for nowhere
	cpuErr      error  // why ProcessCPU could not read it
}

// NewSampler returns a sampler of src; nothing is sent before Start.
func NewSampler(src Source, o Options) *Sampler {
	if o.Interval <= 0 {
		o.Interval = time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = max(o.Interval, 2*time.Second)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Sampler{src: src, o: o, stop: make(chan struct{}), done: make(chan struct{}), seen: map[string]bool{}, replOn: true}
}

// Start says the measured phase begins now. It does not wait for the
// server: the baseline sample is taken on the sampler's own goroutine.
func (s *Sampler) Start() {
	s.startMu.Lock()
	defer s.startMu.Unlock()
	if s.started {
		return
	}
	s.started = true
	s.phaseStart = s.o.Now()
	go s.run()
}

// Stop takes the final sample and ends sampling. It waits for the final
// sample, at most the command timeout and a little more. Without Start, it
// does nothing.
func (s *Sampler) Stop() {
	s.startMu.Lock()
	started := s.started
	s.startMu.Unlock()
	if !started {
		return
	}
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	select {
	case <-s.done:
	case <-time.After(2*s.o.Timeout + time.Second):
	}
}

func (s *Sampler) run() {
	defer close(s.done)
	ctx := context.Background()
	tick := time.NewTicker(s.o.Interval)
	defer tick.Stop()
	st, err := s.status(ctx)
	if err != nil {
		s.unavailable = "serverStatus: " + err.Error()
		<-s.stop
		return
	}
	s.first, s.last = st, st
	s.startLag = st.At.Sub(s.phaseStart)
	s.lags(ctx, true)
	for {
		select {
		case <-tick.C:
			s.step(ctx, false)
		case <-s.stop:
			s.step(ctx, true)
			return
		}
	}
}

// step takes one sample. Every command sent between the baseline and the
// final serverStatus is counted as mongoload's own.
func (s *Sampler) step(ctx context.Context, final bool) {
	if !final {
		s.between++
	}
	st, err := s.status(ctx)
	if err != nil {
		s.failures++
		s.lastErr = err
		if final {
			s.finalErr = err
		}
		return
	}
	sample, restarted := Delta(s.last, st)
	if restarted {
		s.restarts++
	}
	sample.T = round3(st.At.Sub(s.phaseStart).Seconds())
	sample.Replication = s.lags(ctx, !final)
	s.last = st
	s.samples = append(s.samples, sample)
	if s.o.OnSample != nil {
		s.o.OnSample(sample)
	}
}

func (s *Sampler) status(ctx context.Context) (*Status, error) {
	ctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	defer cancel()
	doc, err := s.src.ServerStatus(ctx)
	if err != nil {
		return nil, err
	}
	st, err := Parse(doc, s.o.Now())
	if err != nil {
		return nil, err
	}
	s.processCPU(st)
	for name := range st.values {
		s.seen[name] = true
	}
	return st, nil
}

// processCPU fills st's CPU from the operating system when the server
// reports none and Options.ProcessCPU can read it.
func (s *Sampler) processCPU(st *Status) {
	_, reported := st.values["cpu.userSeconds"]
	if reported {
		s.cpuSource = "serverStatus"
		return
	}
	if s.o.ProcessCPU == nil || st.Pid <= 0 {
		return
	}
	u, sys, src, err := s.o.ProcessCPU(st.Pid, time.Duration(st.Uptime)*time.Millisecond)
	if err != nil {
		s.cpuErr = err
		return
	}
	st.values["cpu.userSeconds"], st.values["cpu.systemSeconds"] = u.Microseconds(), sys.Microseconds()
	s.cpuSource = src
}

// lags asks replSetGetStatus for the secondaries' lag. The first failure
// (a standalone server, mongos, no privilege) turns it off for the run.
func (s *Sampler) lags(ctx context.Context, counted bool) []results.MemberLag {
	if !s.replOn {
		return nil
	}
	if counted {
		s.between++
	}
	ctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	defer cancel()
	doc, err := s.src.ReplSetGetStatus(ctx)
	var members []Member
	if err == nil {
		members, err = ParseRepl(doc)
	}
	if err != nil {
		s.replOn = false
		s.replNote = "replication lag is absent: replSetGetStatus: " + err.Error()
		return nil
	}
	lags := Lags(members)
	if lags == nil {
		if s.replNote == "" {
			s.replNote = fmt.Sprintf("replication lag is absent: the replica set has no secondaries (%d member)", len(members))
		}
		return nil
	}
	s.replSeen = true
	return lags
}

// NeverStarted is Result's Unavailable when Start was never called: the run
// ended before its measured phase.
const NeverStarted = "the measured phase never began"

// ClientSide is what the client did during the measured phase, for the
// cross-check.
type ClientSide struct {
	Ops      []ClientOp
	InFlight int
	Duration time.Duration
	// Streams is the change streams the run's watchers held open.
	Streams int
}

// Result returns what the sampler collected, with the cross-check against
// client when client is not nil. Call it after Stop.
func (s *Sampler) Result(client *ClientSide) *results.Server {
	// The samples are read only once the sampling goroutine has ended: a
	// sampler still waiting on a slow server would be writing them.
	srv := &results.Server{IntervalSeconds: s.o.Interval.Seconds(), Samples: []results.ServerSample{}}
	s.startMu.Lock()
	started := s.started
	s.startMu.Unlock()
	if !started {
		srv.Unavailable = NeverStarted
		return srv
	}
	select {
	case <-s.done:
	default:
		srv.Unavailable = "the server did not answer in time"
		return srv
	}
	if s.samples != nil {
		srv.Samples = s.samples
	}
	if s.unavailable != "" {
		srv.Unavailable = s.unavailable
		return srv
	}
	srv.Host, srv.Version, srv.Process = s.first.Host, s.first.Version, s.first.Process
	srv.Absent = s.absent()
	srv.Notes = s.notes()
	srv.Restarts = s.restarts
	if s.seen["cpu.userSeconds"] {
		srv.CPUSource = s.cpuSource
	}
	total, restarted := Delta(s.first, s.last)
	if restarted {
		return srv
	}
	srv.Opcounters = total.Opcounters
	if client != nil && s.finalErr == nil && srv.Opcounters != nil {
		created, _ := s.last.Value("connections.totalCreated")
		before, ok := s.first.Value("connections.totalCreated")
		newConns := created - before
		if !ok {
			newConns = 0
		}
		cc, notes := CrossCheck(CheckInput{
			Ops: client.Ops, Server: *srv.Opcounters, Own: s.between + 1 + newConns, NewConnections: newConns,
			InFlight: client.InFlight, Duration: client.Duration, StartLag: s.startLag, Streams: client.Streams,
		})
		srv.CrossCheck = cc
		srv.Notes = append(srv.Notes, notes...)
	}
	return srv
}

// sampleFields are the sample's fields, for Absent.
var sampleFields = []string{
	"opcounters.insert", "opcounters.query", "opcounters.update", "opcounters.delete", "opcounters.getmore", "opcounters.command",
	"opLatencies.reads", "opLatencies.writes", "opLatencies.commands", "opLatencies.transactions",
	"connections.current", "connections.available",
	"cache.bytesInUse", "cache.dirtyBytes", "cache.maxBytes", "cache.pagesReadIntoCache",
	"tickets.readAvailable", "tickets.writeAvailable",
	"network.bytesIn", "network.bytesOut",
	"transactions.committed", "transactions.aborted",
	"cpu.userSeconds", "cpu.systemSeconds",
	"replication",
}

// absent lists the fields no reply carried.
func (s *Sampler) absent() []string {
	var out []string
	for _, f := range sampleFields {
		var ok bool
		switch f {
		case "replication":
			ok = s.replSeen
		case "opLatencies.reads", "opLatencies.writes", "opLatencies.commands", "opLatencies.transactions":
			ok = s.seen[f+".ops"] && s.seen[f+".latency"]
		default:
			ok = s.seen[f]
		}
		if !ok {
			out = append(out, f)
		}
	}
	return out
}

func (s *Sampler) notes() []string {
	var notes []string
	switch {
	case s.cpuErr != nil:
		notes = append(notes, "server CPU is absent: serverStatus.extra_info reports no user_time_us/system_time_us on this server, and reading it from the operating system failed: "+s.cpuErr.Error())
	case !s.seen["cpu.userSeconds"]:
		notes = append(notes, "server CPU is absent: serverStatus.extra_info reports no user_time_us/system_time_us on this server")
	case s.cpuSource != "serverStatus":
		notes = append(notes, "server CPU read from "+s.cpuSource+": serverStatus.extra_info reports none, and the server runs on this host")
	}
	if !s.replSeen && s.replNote != "" {
		notes = append(notes, s.replNote)
	}
	if s.failures > 0 {
		notes = append(notes, fmt.Sprintf("%d of the samples failed (last: %v): the intervals around them are longer", s.failures, s.lastErr))
	}
	if s.finalErr != nil {
		notes = append(notes, "the final sample failed, so the server's counts stop early and are not cross-checked")
	}
	if s.restarts > 0 {
		notes = append(notes, "the server restarted during the run: its counters started again from 0, so the intervals across the restart have no deltas and there is no cross-check")
	}
	return notes
}
