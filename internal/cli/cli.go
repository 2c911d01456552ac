// Package cli is mongoload's command line: subcommands, flags and the
// environment. It is the only package that prints to the terminal or picks
// an exit code, so whole runs are testable in-process through Run.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/mongoload/mongoload/internal/capture"
	"github.com/mongoload/mongoload/internal/config"
)

// Version is set at build time (-ldflags "-X .../cli.Version=...").
var Version = "dev"

// IO is where a command reads its environment and writes its output.
type IO struct {
	Stdout, Stderr io.Writer
	// Getenv looks up an environment variable; nil means the process environment.
	Getenv func(string) (string, bool)
	// Environ lists the environment ("NAME=value"), for the variables
	// mongoload names as misspelt; nil (with Getenv given) checks none.
	Environ func() []string
}

type command struct {
	summary string
	run     func(ctx context.Context, args []string, io IO) error
}

var commands map[string]command

func init() {
	commands = map[string]command{
		"run":       {"run a workload (a file, or a built-in name; default: the built-in default)", runCommand},
		"load":      {"fill a workload's collections with generated documents (--documents N or --size 50GB), resumably", loadCommand},
		"import":    {"convert another tool's workload to mongoload YAML (import plgm --collections DIR --queries DIR)", importCommand},
		"capture":   {"turn a live deployment's profiler, logs or $queryStats and its collections into a workload file (docs/capture.md)", captureCommand},
		"replay":    {"replay a captured trace (capture --trace) or a MongoDB traffic recording against a target, with its values at its captured times, or --speed 2, or max (docs/replay.md)", replayCommand},
		"validate":  {"check a workload file without touching a server", validateCommand},
		"show":      {"print a built-in workload's YAML, to copy and edit", showCommand},
		"workloads": {"list the built-in workloads", workloadsCommand},
		"merge":     {"combine several processes' results (.json) and interval logs (.hlog) into one report", mergeCommand},
		"sweep":     {"step the load up (--concurrency 4,8,16,... | --rate | --sessions) on one prepared dataset and judge where it stops scaling", sweepCommand},
		"findmax":   {"find the highest open-loop rate that meets an SLO (--slo \"p99<=20ms\"): probes climb, bisect and confirm on one prepared dataset", findMaxCommand},
		"ab":        {"run one workload on a baseline (--uri) and a candidate (--candidate-uri) in alternating rounds and name every difference: latency per shape, plans, results (docs/ab.md)", abCommand},
		"compare":   {"set results or sweep files side by side against a baseline, with objectives and throughput per cost", compareCommand},
		"report":    {"render a results, sweep or comparison as HTML (--html), CSV (--csv) or Markdown (--markdown)", reportCommand},
		"history":   {"a store's results over time (run --history STORE) and their change points; --fail-on-regression gates CI (docs/history.md)", historyCommand},
		"verify":    {"check a workload's invariants after a run (verify payments: balances, ledger and counters agree)", verifyCommand},
		"version":   {"print the version", versionCommand},
	}
}

// Run executes the command line args (without the program name) and returns
// the process exit code.
func Run(ctx context.Context, args []string, o IO) int {
	if o.Getenv == nil {
		o.Getenv, o.Environ = os.LookupEnv, os.Environ
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(o.Stdout)
		return ExitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(o.Stderr, "mongoload: unknown command %q; run 'mongoload help'\n", args[0])
		return ExitUsage
	}
	if o.Environ != nil {
		env := o.Environ()
		for _, w := range append(config.MisspeltVariables(env), config.NotReadBy(args[0], env)...) {
			fmt.Fprintln(o.Stderr, "warning: "+w)
		}
	}
	err := cmd.run(ctx, args[1:], o)
	if errors.Is(err, errHelp) {
		return ExitOK // help asked for is not an error: the usage went to stdout
	}
	if err != nil {
		fmt.Fprintln(o.Stderr, "mongoload: "+describeError(err))
	}
	return exitCode(err)
}

func versionCommand(_ context.Context, args []string, o IO) error {
	fs := newFlags("version", "", o)
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	fmt.Fprintln(o.Stdout, "mongoload", Version)
	return nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "mongoload: load generator and capacity analyser for MongoDB")
	fmt.Fprintln(w, "\nUsage: mongoload COMMAND [WORKLOAD] [flags]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\n'mongoload COMMAND --help' lists a command's flags. A flag whose help names")
	fmt.Fprintln(w, "[MONGOLOAD_<FLAG>] can also be set by that variable (MONGOLOAD_URI, MONGOLOAD_CONCURRENCY, ...);")
	fmt.Fprintln(w, "credentials: MONGOLOAD_USERNAME and MONGOLOAD_PASSWORD.")
	fmt.Fprintln(w, "Exit codes: docs/exit-codes.md.")
}

// Abandon puts back what a command changed on a server and must not leave
// (capture --enable-profiler's profiler), for main to call on a second
// Ctrl-C before it exits.
func Abandon() { capture.Abandon() }
