// Package promsink serves a run's figures to Prometheus while the run lasts:
// GET /metrics in the Prometheus text format.
//
// It is a sink.Sink, under internal/sink with every sink: it learns
// everything from the interval snapshots the run hands out (behind a
// sink.Fanout, so it never blocks the engine) and nothing is recorded per operation on the hot path. Latency histograms
// have fixed buckets in seconds, filled at each interval from the
// interval's HDR histogram: a latency counts in the bucket le=b when the
// HDR bucket holding it ends at or below b, so bucket counts are exact to
// the HDR histogram's 0.1% resolution and never count a latency as faster
// than it was.
package promsink

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
)

// Options describe the run to the exporter.
type Options struct {
	// Addr is where to listen: host:port, or a port alone (":9464" or
	// "9464") for the loopback interface.
	Addr     string
	Ops      []Op // the recorder's operations, in its order
	Workload string
	Version  string
	Load     string // closed, open or sessions
}

// Op names one operation and its type.
type Op struct{ Name, Type string }

// Exporter serves /metrics and is a sink.Sink that updates what it
// serves at each interval. Close stops the server.
type Exporter struct {
	ln  net.Listener
	srv *http.Server
	col *collector
}

// ListenAddr resolves the address the exporter listens on: a port alone
// means the loopback interface, so a run never exposes its figures beyond
// the machine unless told to with an explicit host such as 0.0.0.0.
func ListenAddr(addr string) (string, error) {
	addr = strings.TrimSpace(addr)
	if _, err := strconv.ParseUint(addr, 10, 16); err == nil {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("prometheus address %q: want host:port or a port, such as 127.0.0.1:9464 or 9464", addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", fmt.Errorf("prometheus address %q: %q is not a port number", addr, port)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// Listen starts serving /metrics on o.Addr (see ListenAddr), on a port of
// its own; a run serves on the port its session holds instead (Serve).
func Listen(o Options) (*Exporter, error) {
	addr, err := ListenAddr(o.Addr)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("prometheus endpoint: %w", err)
	}
	return Serve(ln, o), nil
}

// Serve serves /metrics on ln (a Held port's View, or a listener of its
// own) until Close, which closes ln.
func Serve(ln net.Listener, o Options) *Exporter {
	col := newCollector(o)
	reg := prometheus.NewRegistry()
	reg.MustRegister(col, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, "mongoload: the run's metrics are at /metrics")
	})
	e := &Exporter{ln: ln, col: col, srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}}
	go func() { _ = e.srv.Serve(ln) }()
	return e
}

// Addr is the address the exporter listens on, with the port it got.
func (e *Exporter) Addr() string { return e.ln.Addr().String() }

// Name names the sink in notes and errors.
func (e *Exporter) Name() string { return "Prometheus endpoint http://" + e.Addr() + "/metrics" }

// Interval adds one interval to what /metrics serves.
func (e *Exporter) Interval(s *sink.Snapshot) {
	e.col.add(s.Interval, s.Elapsed)
	if len(s.Summary.Watchers) > 0 {
		e.col.mu.Lock()
		e.col.addWatchers(s.Summary.Watchers)
		e.col.mu.Unlock()
	}
}

// Close stops serving: the endpoint lasts as long as the run.
func (e *Exporter) Close(*results.Result) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := e.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("prometheus endpoint: %w", err)
	}
	return nil
}
