package loader

import (
	"fmt"
	"time"
)

// Progress is a snapshot of one collection's load, reported about once an
// interval and at the end.
type Progress struct {
	Collection string
	Part       int
	Parts      int
	Total      int64 // documents this process loads, written before or now
	Already    int64 // of Total, written by earlier attempts
	Written    int64 // documents written now
	Duplicates int64 // documents of redone keys that were already there
	Bytes      int64 // BSON bytes sent now
	Elapsed    time.Duration
	Final      bool
}

// Done is the documents of Total that are in the collection so far.
func (p Progress) Done() int64 { return p.Already + p.Written + p.Duplicates }

// Fraction is Done/Total, 1 when there is nothing to do.
func (p Progress) Fraction() float64 {
	if p.Total <= 0 {
		return 1
	}
	return float64(p.Done()) / float64(p.Total)
}

// Rate is documents per second so far (written and found already there).
func (p Progress) Rate() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Written+p.Duplicates) / p.Elapsed.Seconds()
}

// MBps is megabytes (10^6 bytes) of BSON sent per second so far.
func (p Progress) MBps() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Bytes) / 1e6 / p.Elapsed.Seconds()
}

// ETA estimates the time left at the rate so far; 0 when unknown or done.
func (p Progress) ETA() time.Duration {
	r, left := p.Rate(), p.Total-p.Done()
	if r <= 0 || left <= 0 {
		return 0
	}
	secs := float64(left) / r
	if secs >= maxETA.Seconds() {
		return maxETA // a Duration holds at most 292 years; beyond, a conversion would go negative
	}
	return time.Duration(secs * float64(time.Second))
}

// maxETA is the longest ETA reported: whatever is longer is "ever".
const maxETA = 100 * 365 * 24 * time.Hour

// ETAUnbounded reports whether ETA is only a bound (maxETA).
func (p Progress) ETAUnbounded() bool { return p.ETA() >= maxETA }

// Unfinished reports whether a final snapshot ended with documents left:
// the load was interrupted or failed.
func (p Progress) Unfinished() bool { return p.Final && p.Done() < p.Total }

// PartLabel names a partition in a progress line: " (partition 1/4)", or
// nothing for an unpartitioned load.
func PartLabel(part, parts int) string {
	if parts <= 1 {
		return ""
	}
	return fmt.Sprintf(" (partition %d/%d)", part, parts)
}
