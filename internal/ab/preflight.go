package ab

import (
	"context"
	"errors"
	"io"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/run"
)

// checkDistinct refuses two URIs of one deployment (localhost and
// 127.0.0.1, two members of one replica set) unless AllowSame, before
// either side is set up or seeded: the command line only sees the same
// text twice. A side that cannot be reached or say who it is is left to
// Open, which says why.
func (x *comparison) checkDistinct(ctx context.Context) error {
	if x.AllowSame {
		return nil
	}
	var ids [2]mongodb.Deployment
	for i, s := range x.sides {
		c, err := run.Connect(ctx, io.Discard, s.cfg, mongodb.ConnectOptions{})
		if err != nil {
			return nil
		}
		ids[i], err = c.Deployment(ctx)
		c.Close()
		if err != nil {
			return nil
		}
	}
	if ids[0].Same(ids[1]) {
		return fail(run.Usage, errors.New("--uri and --candidate-uri reach the same deployment: an A/A run (which shows the comparison's own noise: it should flag nothing) needs --allow-same"))
	}
	return nil
}
