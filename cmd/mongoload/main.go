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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills at once
	}()
	code := cli.Run(ctx, os.Args[1:], cli.IO{Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}
