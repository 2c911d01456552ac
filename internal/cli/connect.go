package cli

import (
	"context"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/run"
)

// connect is what capture and replay still connect with, until their
// work moves into their own rooms (issue 37): delete it with its last use.
func connect(ctx context.Context, o IO, cfg *config.Config) (*mongodb.Client, error) {
	return run.Connect(ctx, o.Stderr, cfg, mongodb.ConnectOptions{})
}
