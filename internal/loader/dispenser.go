package loader

import (
	"sync"
)

// dispenser hands out chunks: first the keys to redo, then fresh keys,
// recording the lease before any fresh key goes out.
type dispenser struct {
	mu     sync.Mutex
	redo   Ranges
	fresh  Ranges
	chunk  int64
	lease  int64
	ahead  int64
	extend func(lease int64) error
}

// next returns the next chunk and whether it is fresh; ok is false when
// nothing is left.
func (d *dispenser) next() (c Range, fresh, ok bool, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.redo) > 0 {
		return take(&d.redo, d.chunk), false, true, nil
	}
	if len(d.fresh) == 0 {
		return Range{}, false, false, nil
	}
	c = take(&d.fresh, d.chunk)
	if c.To > d.lease {
		end := c.To
		if len(d.fresh) > 0 {
			end = d.fresh[len(d.fresh)-1].To
		}
		lease := min(c.To+d.ahead, end)
		if err := d.extend(lease); err != nil {
			return Range{}, false, false, err
		}
		d.lease = lease
	}
	return c, true, true, nil
}

// take cuts up to n keys off the front of rs.
func take(rs *Ranges, n int64) Range {
	r := (*rs)[0]
	if r.Len() <= n {
		*rs = (*rs)[1:]
		return r
	}
	(*rs)[0].From += n
	return Range{r.From, r.From + n}
}
