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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills at once
	}()
	code := cli.Run(ctx, os.Args[1:], cli.IO{Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}
