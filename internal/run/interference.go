package run

import (
	"fmt"
	"math"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/procstat"
	"github.com/mongoload/mongoload/internal/results"
)

// hostClock measures the interference of a measured phase: the host's
// busy CPU (/proc/stat) less mongoload's own and the local server's, read
// at the phase's start and end. Where /proc cannot be read it measures
// nothing and the result has no interference.
type hostClock struct {
	ok        bool
	h0        procstat.HostTimes
	self0     time.Duration
	server    procstat.Listener // Pid 0: no server on this host
	serverErr error
	srv0      time.Duration
}

// start reads the host, this process and the server (server finds it:
// the process listening on the URI's port, on this host).
func (c *hostClock) start(server func() (procstat.Listener, bool, error)) {
	h, err := procstat.ReadHost()
	if err != nil {
		return
	}
	self, err := procstat.SelfTimes()
	if err != nil {
		return
	}
	c.ok, c.h0, c.self0 = true, h, self
	var local bool
	if c.server, local, c.serverErr = server(); local && c.serverErr == nil {
		if c.srv0, c.serverErr = procstat.ProcessTimes(c.server.Pid); c.serverErr != nil {
			c.server = procstat.Listener{}
		}
	}
}

// stop reads them again and returns the phase's interference, nil when
// the start could not be read.
func (c *hostClock) stop() *results.Interference {
	if !c.ok {
		return nil
	}
	h, err1 := procstat.ReadHost()
	self, err2 := procstat.SelfTimes()
	wall := h.At.Sub(c.h0.At).Seconds()
	if err1 != nil || err2 != nil || wall <= 0 || h.CPUs <= 0 {
		return nil
	}
	cores := func(d time.Duration) float64 { return math.Max(0, d.Seconds()/wall) }
	in := &results.Interference{Cores: h.CPUs, Busy: cores(h.Busy - c.h0.Busy), Client: cores(self - c.self0), Steal: cores(h.Steal - c.h0.Steal)}
	other := in.Busy - in.Client
	switch {
	case c.server.Pid > 0:
		if t, err := procstat.ProcessTimes(c.server.Pid); err == nil {
			srv := round3(cores(t - c.srv0))
			in.Server, in.ServerProcess = &srv, fmt.Sprintf("pid %d (%s)", c.server.Pid, c.server.Name)
			other -= srv
		} else {
			in.Note = "the server's process ended during the run: its CPU is counted as other work"
		}
	case c.serverErr != nil:
		in.Note = "the server's CPU is not subtracted: " + c.serverErr.Error()
	}
	c.near(in, h, wall)
	in.Other = round3(math.Max(0, other))
	in.OtherShare = round3(in.Other / float64(h.CPUs))
	in.StealShare = round3(in.Steal / float64(h.CPUs))
	in.Busy, in.Client, in.Steal = round3(in.Busy), round3(in.Client), round3(in.Steal)
	return in
}

// near measures the other work on the cores the server and this process
// may run on (their affinity), when those are fewer than the host's: work
// on the others does not slow the run.
func (c *hostClock) near(in *results.Interference, h procstat.HostTimes, wall float64) {
	self, err := procstat.Affinity(int64(os.Getpid()))
	if err != nil || c.server.Pid <= 0 || in.Server == nil {
		return
	}
	srv, err := procstat.Affinity(c.server.Pid)
	if err != nil {
		return
	}
	set := map[int]bool{}
	for _, n := range append(append([]int(nil), self...), srv...) {
		set[n] = true
	}
	if len(set) >= h.CPUs {
		return // every core: the host's share is the one
	}
	var busy time.Duration
	var cores []int
	for n := range set {
		busy += h.CoreBusy[n] - c.h0.CoreBusy[n]
		cores = append(cores, n)
	}
	slices.Sort(cores)
	other := round3(math.Max(0, busy.Seconds()/wall-in.Client-*in.Server))
	share := round3(other / float64(len(cores)))
	in.ServerCores, in.ClientCores, in.NearCores = cpuList(srv), cpuList(self), cpuList(cores)
	in.Near, in.NearShare = &other, &share
}

// cpuList writes CPUs as the kernel does: "0-3,6".
func cpuList(cpus []int) string {
	var parts []string
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", cpus[i], cpus[j]))
		} else {
			parts = append(parts, strconv.Itoa(cpus[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// localServer is the process listening on the session's URI's port on
// this host, found once per session (a scan of /proc); false when the
// server is not on this host (or there is none: --target noop).
func (s *Session) localServer() (procstat.Listener, bool, error) {
	s.serverOnce.Do(func() {
		port, local := loopbackPort(s.cfg.Connection.URI)
		if !local || Noop(s.cfg) {
			return
		}
		s.server.local = true
		s.server.proc, s.server.err = procstat.ListenerOf(port)
	})
	return s.server.proc, s.server.local, s.server.err
}

// loopbackPort is the port of a loopback URI's first host (27017 when it
// names none); false for a server elsewhere.
func loopbackPort(uri string) (int, bool) {
	host, local := results.LoopbackHost(uri)
	if !local {
		return 0, false
	}
	_, p, err := net.SplitHostPort(host)
	if err != nil {
		return 27017, true
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		return 0, false
	}
	return port, true
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
