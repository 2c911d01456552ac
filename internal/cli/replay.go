package cli

import (
	"context"
	"errors"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/replay"
	"github.com/mongoload/mongoload/internal/report"
)

const replayArgs = "TRACE --uri URI [--speed 2 | --speed max] [--loop N] [--allow-existing] [--replay-ddl] [--out results.json]"

// replaySettings are the settings replay takes: the connection, the
// ownership rule, the open loop's cap and the run's outputs.
var replaySettings = []string{"uri", "username", "auth-source", "app-name", "max-pool-size", "compressors", "connect-timeout",
	"server-selection-timeout", "op-timeout", "write-concern", "allow-existing", "create-indexes", "replay-ddl", "replay-admin", "write-to-source", "max-in-flight", "interval",
	"grace", "out", "label", "history", "quiet", "hdr-log", "server-telemetry", "server-stats"}

// replayCommand replays a captured trace (capture --trace) against a
// target, on run's pipeline with the trace as its schedule
// (docs/replay.md).
func replayCommand(ctx context.Context, args []string, o IO) error {
	fs := newFlags("replay", replayArgs, o)
	addSettingsOf(fs, replaySettings)
	speedText := fs.String("speed", "1", "replay at this factor of the captured pace (2: twice as fast, in half the time), or max: as fast as the in-flight places allow ["+config.EnvName("speed")+"]")
	loops := fs.Float64("loop", 1, "replay the trace this many times, one pass after the other ["+config.EnvName("loop")+"]")
	if err := parseArgs(fs, args, 1); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return withCode(ExitUsage, errors.New("replay needs the trace: mongoload replay TRACE --uri URI (write one with capture --trace FILE --keep-values)"))
	}
	speed, passes, es := replayNumbers(sources(fs, o), *speedText, *loops)
	es = append(es, flagNumbers(fs)...)
	cfg, err := resolveSettings(fs, o, replaySettings)
	es.Add(err)
	if err := es.Err(); err != nil {
		return err // every bad value at once, before the trace is read
	}
	out := output{format: "console"}
	r, err := replay.Run(ctx, cfg, replay.Options{Trace: fs.Arg(0), Speed: speed, Loops: passes, Log: o.Stderr, Version: Version,
		Sinks: out.live(o, cfg.Run.Quiet)})
	if err != nil {
		return err
	}
	if err := out.report(o, cfg, r.Result, o.Stdout); err != nil {
		return err
	}
	report.WriteReplay(o.Stdout, r.Result.Result.Replay)
	return errors.Join(r.Err(), keepHistory(o, cfg.Run.History, r.Result.Result))
}

// replayNumbers reads --speed (0 for max) and --loop, from the flag or
// else its variable, each refusal naming the one that gave it.
func replayNumbers(src config.Sources, speedText string, loops float64) (speed float64, passes int, es config.Errors) {
	from := config.FlagSource("speed")
	if v, where, ok := src.Value("speed"); ok {
		speedText, from = v, config.Source{Name: where}
	}
	speed, err := config.ParseSpeed(from, speedText)
	es.Add(err)
	if v, where, ok := src.Value("loop"); ok && where != "--loop" { // the flag's own number pflag read
		n, err := config.ParseNumber(config.EnvSource(where), v, flagRanges["loop"])
		es.Add(err)
		loops = n
	}
	return speed, int(loops), es
}
