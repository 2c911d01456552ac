package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/history"
	"github.com/mongoload/mongoload/internal/report"
)

// historyCommand shows a store's series and their change points
// (docs/history.md); --fail-on-regression gates a CI pipeline on them.
func historyCommand(ctx context.Context, args []string, o IO) error {
	fs := newFlags("history", "[STORE] [flags]   (STORE: a directory or a mongodb:// URI that --history wrote to, or a CSV file in the layout --format csv writes, read only; default "+config.EnvName("history")+")", o)
	since := fs.String("since", "", "only results from then on: a date (2026-11-01), an RFC 3339 time, or an age (30d, 12h)")
	workload := fs.String("workload", "", "only this workload")
	metrics := fs.StringSlice("metric", nil, "only these metrics: throughput, errors, cpu_per_op, p50, p95, p99 (every operation's) or p99_NAME (repeatable)")
	label := fs.String("label", "", "only results whose label matches this pattern (build-*)")
	format := fs.String("format", "text", "text, csv (Apache Otava reads it), json, markdown or html (a chart per metric)")
	fail := fs.Bool("fail-on-regression", false, fmt.Sprintf("exit %d when the latest change point of the throughput or errors (or of each metric --metric names) is a regression beyond --threshold", ExitRegression))
	threshold := fs.String("threshold", "5%", "the smallest worsening that --fail-on-regression counts")
	pvalue := fs.String("p-value", fmt.Sprint(history.DefaultMethod.PValue), "the permutation test's significance level, "+history.PValueRange.String())
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	store, _ := o.Getenv(config.EnvName("history")) // the store run --history used, when the job set it once for both
	if fs.NArg() == 1 {
		store = fs.Arg(0)
	}
	if store == "" {
		return withCode(ExitUsage, fmt.Errorf("history: give the store: the directory or mongodb:// URI that --history (%s) wrote to", config.EnvName("history")))
	}
	opts, q, err := history.ParseOptions(*since, *threshold, *pvalue, time.Now())
	if err != nil {
		return err // config.Errors: exit 12, each bad value naming its flag
	}
	if !slices.Contains(report.HistoryFormats, *format) {
		return withCode(ExitUsage, fmt.Errorf("--format %q: give text, csv, json, markdown or html", *format))
	}
	q.Workload, q.Label, opts.Metrics = *workload, *label, *metrics
	h, err := history.Read(ctx, store, q, opts)
	if h != nil {
		for _, s := range h.Skipped {
			fmt.Fprintf(o.Stderr, "warning: history entry skipped, damaged: %s (delete it; the other results are analysed)\n", s)
		}
	}
	if err != nil {
		return withCode(historyExit(err), err)
	}
	if err := report.WriteHistory(o.Stdout, h, *format); err != nil {
		return withCode(ExitOutput, err)
	}
	if bad := history.Regressed(h, len(*metrics) > 0); *fail && len(bad) > 0 {
		return withCode(ExitRegression, fmt.Errorf("history: regression beyond %s at the latest change point of %s", *threshold, strings.Join(bad, ", ")))
	}
	return nil
}

// historyExit is the code of a store that cannot be read.
func historyExit(err error) int {
	if kind, ok := config.KindOf(err); ok {
		return configExit[kind] // a CSV's bad line: 10, a value that is not finite: 12
	}
	switch {
	case errors.Is(err, history.ErrNothing):
		return ExitNothing
	case errors.Is(err, history.ErrUnreachable):
		return ExitUnreachable
	case errors.Is(err, history.ErrAuth):
		return ExitAuth
	}
	return ExitUnreadable // not a store, a result of another schema, a damaged file
}

// keepHistory appends a command's result (a *results.Result, Sweep,
// FindMax or AB) to --history's store, when one was given; a result the
// run did not finish is not kept.
func keepHistory(o IO, store string, doc any) error {
	if store == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := history.Keep(ctx, store, doc)
	if errors.Is(err, history.ErrUnfinished) {
		fmt.Fprintf(o.Stderr, "note: not kept in history: %v\n", err)
		return nil
	}
	if err != nil {
		return withCode(ExitOutput, fmt.Errorf("--history %s: %w", history.Redact(store), err))
	}
	fmt.Fprintf(o.Stderr, "result kept in history %s\n", history.Redact(store))
	return nil
}
