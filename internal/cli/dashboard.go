package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/dashboard"
	"github.com/mongoload/mongoload/internal/results"
)

// defaultLinger is how long the dashboard stays up after the end unless
// --dashboard-linger says otherwise.
const defaultLinger = 30 * time.Second

// operatorView is the dashboard of one command, across its measured runs
// (a sweep's steps, a battery's runs); nil-safe.
type operatorView struct {
	dash *dashboard.Server
}

// startDashboard serves the dashboard if --dashboard asks for it. The
// caller closes it (nil-safe) after lingering.
func startDashboard(o IO, cfg *config.Config, command string) (*operatorView, error) {
	view := &operatorView{}
	if cfg.Run.Dashboard == "" {
		return view, nil
	}
	addr, err := dashboard.ListenAddr(cfg.Run.Dashboard)
	if err != nil {
		return nil, withCode(ExitUsage, fmt.Errorf("--dashboard: %w", err))
	}
	d, err := dashboard.Start(dashboard.Options{
		Addr: addr, Command: command, Tool: results.Tool{Name: "mongoload", Version: Version},
		Workload: results.Workload{Name: cfg.Name, Source: cfg.Source}, Label: cfg.Run.Label,
		HTMLReport: htmlPage,
	})
	if err != nil {
		return nil, withCode(ExitOutput, err)
	}
	fmt.Fprintf(o.Stderr, "dashboard on %s\n", d.URL())
	if !dashboard.Loopback(d.Addr()) {
		fmt.Fprintf(o.Stderr, "warning: the dashboard listens on %s, reachable from other machines, without authentication\n", d.Addr())
	}
	view.dash = d
	return view, nil
}

// server is the dashboard, nil for none.
func (v *operatorView) server() *dashboard.Server {
	if v == nil {
		return nil
	}
	return v.dash
}

// sweep tells the dashboard the steps to come.
func (v *operatorView) sweep(param string, levels []float64) {
	if v != nil && v.dash != nil {
		v.dash.SetSweep(param, levels)
	}
}

// end says the command is over, keeps the page up for the linger, and
// stops the dashboard.
func (v *operatorView) end(ctx context.Context, o IO, cfg *config.Config, sw *results.Sweep, err error) {
	if v == nil || v.dash == nil {
		return
	}
	worth := v.dash.HasResult() // nothing to read after a failed connection
	v.dash.Finish(sw, err)
	linger := defaultLinger
	if cfg.Run.DashboardLinger != nil {
		linger = cfg.Run.DashboardLinger.D()
	}
	if worth {
		v.dash.Linger(ctx, linger, o.Stderr)
	}
	_ = v.dash.Close()
}
