package ab

import (
	"context"
	"errors"
	"fmt"
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

// checkDataFirst compares the sides' data before either is set up, when
// nothing (no seeding, no --drop) will make them alike: setup would create
// a collection one side lacks (and mark it mongoload's) before the data
// check refused the pair.
func (x *comparison) checkDataFirst(ctx context.Context) error {
	var cs [2]*mongodb.Client
	for i, s := range x.sides {
		c, err := run.Connect(ctx, io.Discard, s.cfg, mongodb.ConnectOptions{})
		if err != nil {
			for _, c := range cs[:i] {
				c.Close()
			}
			return fmt.Errorf("side %s: %w", s.name, err)
		}
		cs[i] = c
	}
	defer cs[0].Close()
	defer cs[1].Close()
	data, err := checkData(ctx, cs[0], cs[1], x.sides[0].plan.Collections)
	if err != nil {
		return err
	}
	if diff := dataDiffs(data); diff != "" {
		return differ(diff)
	}
	return nil
}

// differ refuses two sides whose data differ where mongoload did not seed
// them: no result could be compared.
func differ(diff string) error {
	return fmt.Errorf("%w: %s; load both alike (mongoload load with the same --random-seed), or let ab seed both with --seed and --random-seed", ErrDataDiffer, diff)
}
