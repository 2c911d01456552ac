package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
)

// request.go: a capture as a command asks for it: its options checked
// before anything is read or connected, and its outcome written (the
// workload file, its summary) with the error kind that ends it.

func usage(err error) error { return &config.Error{Kind: config.Usage, Msg: err.Error()} }

func outputErr(err error) error {
	if err == nil {
		return nil
	}
	return &run.Error{Kind: run.Output, Err: err}
}

// Check refuses what cannot be captured, before the window opens: out (the
// workload file, "" for standard output) and the trace are tried now, not
// after the window, since an unwritable path, or one of the files read,
// would lose it.
func (o *Options) Check(out string) error {
	if o.Scale <= 0 || o.Sample <= 0 || o.MinShare < 0 || o.MinShare >= 1 || o.Rate < 0 {
		return usage(errors.New("--scale and --sample must be positive, --min-share in [0, 1), --rate 0 or more"))
	}
	switch p := o.TracePath; {
	case p != "" && !o.KeepValues:
		return usage(errors.New("--trace writes every operation with its literal values (the application's data): add --keep-values to say that this data may leave the deployment"))
	case p != "" && (p == "-" || IsConsole(p)):
		return usage(fmt.Errorf("--trace %s: a trace needs a file: it holds the application's data and is never printed (a terminal, a device or a standard stream is refused)", p))
	}
	if err := results.CheckDistinct(results.Output{What: "workload file (--out)", Path: out}, results.Output{What: "trace (--trace)", Path: o.TracePath}); err != nil {
		return outputErr(err)
	}
	inputs := append(slices.Clone(o.Logs), o.Exports...)
	for _, f := range []struct{ what, path string }{{"workload file (--out)", out}, {"trace (--trace)", o.TracePath}} {
		if f.path != "" {
			if err := results.CheckWritableAs(f.what, f.path, inputs...); err != nil {
				return outputErr(err)
			}
		}
	}
	return nil
}

// ParseImpact reads --max-impact: a percentage above 0 and at most
// 1000% (20% or 20), refused with exit 12 as every bad value is.
func ParseImpact(s string) (float64, error) {
	return config.ParsePercentFrom(config.FlagSource("max-impact"), s, config.ImpactRange)
}

// IsConsole says whether path is a terminal or other device, or one of
// this process's standard streams under any name (/dev/stderr,
// /proc/self/fd/1, or the file a stream is redirected to).
func IsConsole(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false // a new file
	}
	if fi.Mode()&os.ModeDevice != 0 {
		return true
	}
	for _, std := range []*os.File{os.Stdin, os.Stdout, os.Stderr} {
		if si, err := std.Stat(); err == nil && os.SameFile(fi, si) {
			return true
		}
	}
	return false
}

// Write writes the captured workload, named name (or after the databases),
// to out, or to stdout when out is "", and its summary beside it (on
// stderr when the workload went to stdout). It returns how the capture
// ended: interrupted, protected (the profiler cost too much) or the server
// lost, each with what was read written.
func (r *Result) Write(ctx context.Context, o Options, name, out string, stdout, stderr io.Writer) error {
	if name == "" {
		name = "capture"
		for _, db := range o.Databases {
			name += "-" + NameOf(db, o.RedactNames)
		}
	}
	w := r.Workload(name)
	w.Config.CapturedFrom = r.CapturedFrom
	var buf bytes.Buffer
	if err := w.WriteYAML(&buf); err != nil {
		return err
	}
	summary := stdout
	if out == "" {
		summary = stderr
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			return err
		}
	} else if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return outputErr(fmt.Errorf("write the workload: %w", err))
	}
	w.Summary(summary, filepath.Base(out))
	switch {
	case ctx.Err() != nil:
		return &run.Error{Kind: run.Interrupted, Err: errors.New("interrupted: what was captured before is written")}
	case r.Protected != "":
		return &ProtectedError{Why: r.Protected + ": what was read before is written"}
	case r.ServerLost:
		return &run.Error{Kind: run.ServerLost, Err: errors.New("the server went away during the capture: what was read before is written")}
	}
	return nil
}
