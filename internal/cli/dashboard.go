package cli

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/dashboard"
	"github.com/mongoload/mongoload/internal/results"
)

// startDashboard serves the dashboard if --dashboard asks for it (nil
// otherwise: every method of a nil dashboard does nothing). The caller
// ends it (End) after its last measured phase.
func startDashboard(o IO, cfg *config.Config, command string) (*dashboard.Server, error) {
	if cfg.Run.Dashboard == "" {
		return nil, nil
	}
	addr, err := dashboard.ListenAddr(cfg.Run.Dashboard)
	if err != nil {
		return nil, withCode(ExitUsage, fmt.Errorf("--dashboard: %w", err))
	}
	linger := dashboard.DefaultLinger
	if cfg.Run.DashboardLinger != nil {
		linger = cfg.Run.DashboardLinger.D()
	}
	d, err := dashboard.Start(dashboard.Options{
		Addr: addr, Command: command, Tool: results.Tool{Name: "mongoload", Version: Version},
		Workload: results.Workload{Name: cfg.Name, Source: cfg.Source}, Label: cfg.Run.Label,
		HTMLReport: htmlPage, Linger: linger,
	})
	if err != nil {
		return nil, withCode(ExitOutput, err)
	}
	fmt.Fprintf(o.Stderr, "dashboard on %s\n", d.URL())
	if !dashboard.Loopback(d.Addr()) {
		fmt.Fprintf(o.Stderr, "warning: the dashboard listens on %s, reachable from other machines, without authentication\n", d.Addr())
	}
	return d, nil
}
