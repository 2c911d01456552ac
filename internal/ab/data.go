package ab

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/workload"
)

// dataSample is how many documents of each collection, in _id order, are
// hashed to tell whether both sides hold the same data.
const dataSample = 1000

// checkData compares each collection's count and the digest of its first
// dataSample documents on both sides.
func checkData(ctx context.Context, a, b *mongodb.Client, cols []*workload.Collection) ([]results.ABData, error) {
	var out []results.ABData
	for _, col := range cols {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		na, da, errA := a.Sample(ctx, col.Database, col.Name, dataSample)
		nb, db, errB := b.Sample(ctx, col.Database, col.Name, dataSample)
		cancel()
		if errA != nil || errB != nil {
			return out, fail(run.ServerFailure, fmt.Errorf("reading %s to compare the sides' data: %w", col.Namespace(), firstErr(errA, errB)))
		}
		d := results.ABData{Namespace: col.Namespace(), CountA: na, CountB: nb, Sample: dataSample, DigestA: digest(da), DigestB: digest(db)}
		d.Same = na == nb && d.DigestA == d.DigestB
		if !d.Same {
			for i := range max(len(da), len(db)) {
				if i >= len(da) || i >= len(db) || !bytes.Equal(da[i], db[i]) {
					if i < len(da) {
						d.FirstDiff = idText(da[i])
					} else {
						d.FirstDiff = idText(db[i])
					}
					break
				}
			}
		}
		out = append(out, d)
	}
	return out, nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// dataDiffs names each collection whose data differ, in one line.
func dataDiffs(data []results.ABData) string {
	var parts []string
	for _, d := range data {
		switch {
		case d.Same:
		case d.CountA != d.CountB:
			parts = append(parts, fmt.Sprintf("%s holds %s documents on A and %s on B", d.Namespace, results.Thousands(d.CountA), results.Thousands(d.CountB)))
		default:
			parts = append(parts, fmt.Sprintf("%s: the first %d documents in _id order differ from _id %s", d.Namespace, d.Sample, d.FirstDiff))
		}
	}
	return strings.Join(parts, "; ")
}
