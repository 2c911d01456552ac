package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mongoload/mongoload/internal/merge"
	"github.com/mongoload/mongoload/internal/results"
)

// mergeCommand combines the results of several processes of one run:
// results files (.json) and interval logs (.hlog), by adding histograms.
func mergeCommand(_ context.Context, args []string, o IO) error {
	fs := newFlags("merge", "FILE.json|FILE.hlog... [flags]", o)
	out := fs.String("out", "", "write the merged result as JSON to this file")
	format := fs.String("format", "console", "what to print on stdout: console (the report) or json (the merged result)")
	if err := parse(fs, args, 1<<20); err != nil {
		return err
	}
	if *format != "console" && *format != "json" {
		return withCode(ExitUsage, fmt.Errorf("--format %q: want console or json", *format))
	}
	if fs.NArg() == 0 {
		return withCode(ExitUsage, merge.ErrNoInputs)
	}
	if *out != "" {
		if err := results.CheckWritable(*out, fs.Args()...); err != nil {
			return withCode(ExitOutput, err)
		}
	}
	var srcs []*merge.Source
	for _, path := range fs.Args() {
		s, err := merge.Read(path)
		if err != nil {
			return withCode(readExit(err), err)
		}
		srcs = append(srcs, s)
	}
	res, err := merge.Merge(srcs, results.Tool{Name: "mongoload", Version: Version})
	if err != nil {
		if errors.Is(err, merge.ErrNoInputs) {
			return withCode(ExitUsage, err)
		}
		return withCode(ExitInvalid, fmt.Errorf("merge: %w", err))
	}
	if *out != "" {
		if err := results.WriteJSON(*out, res); err != nil {
			return withCode(ExitOutput, err)
		}
	}
	if *format == "json" {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(o.Stdout, "%s\n", b)
		return err
	}
	if err := (&document{Result: res}).print(o, false); err != nil {
		return err
	}
	if *out != "" {
		fmt.Fprintf(o.Stderr, "merged results written to %s\n", *out)
	}
	return nil
}
