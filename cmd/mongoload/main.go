// Command mongoload is a load generator and capacity analyser for MongoDB.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mongoload/mongoload/internal/cli"
)

func main() {
	// The first Ctrl-C (or SIGTERM) cancels ctx: the run ends and its
	// results are written. A second one exits 130 at once, without them
	// (docs/exit-codes.md), once what must be put back on the server is
	// (cli.Abandon: a profiler capture turned on).
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-sigs
		cancel()
		<-sigs
		cli.Abandon()
		os.Stderr.WriteString("mongoload: interrupted again: stopped without writing the results (a results file written before the post-run steps stays)\n")
		os.Exit(cli.ExitAbandoned)
	}()
	code := cli.Run(ctx, os.Args[1:], cli.IO{Stdout: os.Stdout, Stderr: os.Stderr})
	cancel()
	os.Exit(code)
}
