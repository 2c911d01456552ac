package cli

import (
	"context"
	"fmt"

	"github.com/mongoload/mongoload/internal/config"
)

// loadCommand fills a workload's collections to --documents documents each,
// with the run's setup rules (create, --drop, --allow-existing).
func loadCommand(ctx context.Context, args []string, o IO) error {
	fs := newFlags("load", "[WORKLOAD] --documents N [flags]", o)
	addSettings(fs)
	docs := fs.Int64("documents", 0, "documents each collection must hold after the load")
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	cfg, plan, err := resolve(fs.Arg(0), fs, o.Getenv)
	if err != nil {
		return err
	}
	if *docs <= 0 {
		return &config.Error{Kind: config.Invalid, Field: "--documents", Msg: "say how many documents to load, for example --documents 1000000"}
	}
	cfg.Run.Seed = *docs
	client, err := connect(ctx, cfg)
	if err != nil {
		return err
	}
	defer client.Close()
	if err := prepare(ctx, o, cfg, plan, client); err != nil {
		return err
	}
	fmt.Fprintf(o.Stdout, "loaded %s: every collection holds %d documents\n", cfg.Source, *docs)
	return nil
}
