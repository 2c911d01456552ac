// Command mongoload is a load generator and capacity analyser for MongoDB.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/mongoload/mongoload/internal/cli"
)

func main() {
	if os.Getenv("GOGC") == "" {
		// Thousands of workers keep little live memory (about 15 MB), but
		// the default GOGC=100 lets the heap double before each collection.
		// 70 keeps peak RSS under 64 MB at 1,000 workers for no measurable
		// CPU per operation (bench/run.sh); GOGC in the environment wins.
		debug.SetGCPercent(70)
	}
	// The first Ctrl-C (or SIGTERM) cancels ctx: the run ends and its
	// results are written. A second one exits 130 at once, without them
	// (docs/exit-codes.md).
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-sigs
		cancel()
		<-sigs
		os.Stderr.WriteString("mongoload: interrupted again: stopped without writing the results (a results file written before the post-run steps stays)\n")
		os.Exit(cli.ExitAbandoned)
	}()
	code := cli.Run(ctx, os.Args[1:], cli.IO{Stdout: os.Stdout, Stderr: os.Stderr})
	cancel()
	os.Exit(code)
}
