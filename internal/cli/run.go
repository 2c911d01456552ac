package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/sink"
	"github.com/mongoload/mongoload/internal/workload"
)

func runCommand(ctx context.Context, args []string, o IO) (err error) {
	fs := newFlags("run", "[WORKLOAD] [flags]", o)
	addSettings(fs)
	printCfg := fs.Bool("print-config", false, "print the effective configuration (password redacted) and exit")
	rf := addRunFlags(fs)
	addPlgmFlags(fs)
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	cfg, plan, out, err := rf.configure(fs.Arg(0), fs, o)
	if err != nil {
		return err
	}
	if *printCfg {
		return config.EncodeEffective(o.Stdout, cfg)
	}
	out.ycsbHeader(o, "run", args)
	if out.view, err = startDashboard(o, cfg, "run"); err != nil {
		return err
	}
	defer func() { out.view.End(ctx, o.Stderr, nil, err) }() // the final report stays up for --dashboard-linger
	startPprof(o)
	sess, err := openSession(ctx, o, cfg, plan, out, rf.inputs(fs.Arg(0), fs))
	if err != nil {
		return err
	}
	defer sess.Close()
	if cfg.Run.SLO != "" || cfg.Run.Repeat > 1 {
		return battery(ctx, o, cfg, sess, out)
	}
	r, err := out.measure(ctx, o, sess, cfg, o.Stdout)
	if err != nil {
		return err
	}
	return errors.Join(r.Err(), keepHistory(o, cfg.Run.History, r.Result))
}

// openSession tries the outputs, connects, sets up and seeds the workload
// for the command's measured runs (run.Open), with the command's dashboard
// and stderr; inputs are the files the command reads.
func openSession(ctx context.Context, o IO, cfg *config.Config, plan *workload.Plan, out output, inputs []string) (*run.Session, error) {
	shown := false
	return run.Open(ctx, cfg, plan, run.Options{
		Log: o.Stderr, Dashboard: out.view, Version: Version, Inputs: inputs,
		OnContext: func(c *results.ServerContext) {
			if !shown { // once per command, not once per step
				fmt.Fprintln(o.Stderr, "server: "+contextLine(c))
				shown = true
			}
		},
	})
}

// measure runs one measured run of cfg on the session with the live
// line (and sinks besides), prints its report on stdout and says where its
// results went.
func (out output) measure(ctx context.Context, o IO, sess *run.Session, cfg *config.Config, stdout io.Writer, sinks ...sink.Sink) (*run.Result, error) {
	r, err := sess.Run(ctx, cfg, append(out.live(o, cfg.Run.Quiet), sinks...)...)
	if err != nil {
		return nil, err
	}
	if err := out.report(o, cfg, r, stdout); err != nil {
		return nil, err
	}
	return r, nil
}

// report prints a measured run's report on stdout and says where its
// results went.
func (out output) report(o IO, cfg *config.Config, r *run.Result, stdout io.Writer) error {
	if err := out.final(stdout, r.Result); err != nil {
		return err
	}
	if out.format == "ycsb" {
		// YCSB's report has no place for notes: they go to stderr, so that
		// a run whose reads find nothing is flagged there too.
		for _, n := range r.Result.Notes {
			fmt.Fprintln(o.Stderr, "note: "+n)
		}
	}
	if cfg.Run.Out != "" && r.WriteErr == nil {
		fmt.Fprintf(o.Stderr, "results written to %s\n", cfg.Run.Out)
	}
	return nil
}
