// Package dashboard serves mongoload's live web dashboard: a page that
// follows a run as it goes (throughput per operation, latency percentiles,
// errors, in-flight and dropped operations, the client's and the server's
// CPU, the server's telemetry, a sweep's steps, a load's progress) and, at
// the end, shows the final report and offers the self-contained HTML report
// for download.
//
// The page and its charting library (uPlot, vendored by internal/report/html)
// are embedded in the binary, so it works without a network. It reads a
// small JSON and Server-Sent Events API, documented in docs/dashboard.md:
// GET /api/run, /api/snapshots, /api/server, /api/result and /api/events.
//
// Data reaches the dashboard through sink.Dashboard (one snapshot per
// interval, behind sink.Fanout, so it never holds up the engine) and a
// few calls for what is not an interval (server samples, sweep steps, load
// progress). Publishing never waits for a page: one that falls behind is
// disconnected and catches up from the history when it reconnects.
package dashboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/results"
)

// ListenAddr turns the --dashboard value into the address to listen on: a
// bare port ("8080") or ":8080" listens on loopback; another host must be
// named ("0.0.0.0:8080") to be reached from elsewhere.
func ListenAddr(v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", errors.New("give an address such as 127.0.0.1:8080, or a port")
	}
	if _, err := strconv.ParseUint(v, 10, 16); err == nil {
		return net.JoinHostPort("127.0.0.1", v), nil
	}
	host, port, err := net.SplitHostPort(v)
	if err != nil {
		return "", fmt.Errorf("%q is not host:port or a port: %v", v, err)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", fmt.Errorf("%q: %q is not a port number", v, port)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// Loopback reports whether addr (host:port) is reachable only from this machine.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Options describe what the dashboard shows.
type Options struct {
	Addr     string // host:port, as ListenAddr gives it
	Command  string // run, sweep or load
	Tool     results.Tool
	Workload results.Workload
	Label    string
	// HTMLReport renders the final report for download (the HTML report
	// package's writer); nil offers the JSON results only.
	HTMLReport func(w io.Writer, res *results.Result, sw *results.Sweep) error
	// Linger is how long End keeps the final report up (0: not at all).
	Linger time.Duration
}

// Server is a running dashboard. Its methods may be called from any
// goroutine.
type Server struct {
	o    Options
	hub  *hub
	srv  *http.Server
	ln   net.Listener
	errc chan error

	mu     sync.Mutex
	info   Info
	result *results.Result // the last measured phase's, with its series
	sweep  *results.Sweep
}

// Start listens on o.Addr and serves the dashboard until Close.
func Start(o Options) (*Server, error) {
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("dashboard: %w", err)
	}
	s := &Server{o: o, hub: newHub(), ln: ln, errc: make(chan error, 1)}
	s.info = Info{Command: o.Command, Tool: o.Tool, Workload: o.Workload, Label: o.Label, State: "waiting"}
	s.srv = &http.Server{Handler: s.routes(), ReadHeaderTimeout: 10 * time.Second}
	go func() { s.errc <- s.srv.Serve(ln) }()
	return s, nil
}

// URL is where the page is.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/" }

// Addr is the address listened on (with the port chosen, for port 0).
func (s *Server) Addr() string { return s.ln.Addr().String() }

// SetContext records the deployment's context, shown on the page.
func (s *Server) SetContext(c *results.ServerContext) {
	if s == nil || c == nil {
		return
	}
	s.mu.Lock()
	s.info.Context = c
	s.mu.Unlock()
	s.hub.publish("context", c)
}

// SetSweep says the command is a sweep over these levels.
func (s *Server) SetSweep(parameter string, levels []float64) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.info.Sweep = &SweepView{Parameter: parameter, Levels: levels, Steps: []StepEvent{}}
	v := *s.info.Sweep
	s.mu.Unlock()
	s.hub.publish("sweep", v)
}

// Step reports a finished sweep step.
func (s *Server) Step(e StepEvent) {
	if s == nil {
		return
	}
	s.mu.Lock()
	if s.info.Sweep != nil {
		s.info.Sweep.Steps = append(s.info.Sweep.Steps, e)
	}
	s.mu.Unlock()
	s.hub.publish("step", e)
}

// Server reports one server telemetry sample of the current phase.
func (s *Server) Server(sample results.ServerSample) {
	if s == nil {
		return
	}
	s.mu.Lock()
	step, nominal := s.info.Step, 0.0
	if s.info.Run != nil {
		nominal = s.info.Run.Interval // the telemetry samples at the phase's interval
	}
	s.mu.Unlock()
	s.hub.publish("server", ServerEvent{Step: step, At: sample.At.UnixMilli(), Partial: results.Partial(sample.Dt, nominal), ServerSample: sample})
}

// Progress reports a load's progress.
func (s *Server) Progress(p loader.Progress) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.info.State = "running"
	s.mu.Unlock()
	s.hub.publish("progress", progress(p, time.Now()))
}

// Finish says the command is over: the page shows the final report and
// its downloads. sw is the sweep, for a sweep; err says why it failed, if
// it did.
func (s *Server) Finish(sw *results.Sweep, err error) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.sweep = sw
	s.info.State = "finished"
	links := map[string]string{}
	if s.result != nil || sw != nil {
		links["results"] = "/results.json"
		if s.o.HTMLReport != nil {
			links["report"] = "/report.html"
		}
	}
	s.info.Links = links
	s.mu.Unlock()
	e := DoneEvent{Links: links}
	if err != nil {
		e.Error = err.Error()
	}
	s.hub.publish("done", e)
}

// Linger keeps the page up for d after the end, or until ctx is done,
// saying so on w.
func (s *Server) Linger(ctx context.Context, d time.Duration, w io.Writer) {
	if s == nil || d <= 0 || ctx.Err() != nil {
		return
	}
	fmt.Fprintf(w, "dashboard: the final report stays at %s for %s (Ctrl-C to leave now)\n", s.URL(), d)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// Close stops serving and disconnects the pages.
func (s *Server) Close() error {
	if s == nil {
		return nil
	}
	s.hub.close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if e := <-s.errc; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}

// HasResult reports whether a measured phase (or a load) has ended, so
// that there is something to linger for.
func (s *Server) HasResult() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.result != nil || s.sweep != nil || s.info.State == "running"
}

// DefaultLinger is how long the page stays up after the end unless the
// user says otherwise (dashboardLinger).
const DefaultLinger = 30 * time.Second

// End says the command is over (Finish), keeps the page up for
// Options.Linger when there is something to read on it (not after a failed
// connection), and stops serving. Safe on a nil Server, as every method is.
func (s *Server) End(ctx context.Context, w io.Writer, sw *results.Sweep, err error) {
	if s == nil {
		return
	}
	worth := s.HasResult()
	s.Finish(sw, err)
	if worth {
		s.Linger(ctx, s.o.Linger, w)
	}
	_ = s.Close()
}
