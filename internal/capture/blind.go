package capture

import (
	"fmt"
	"strings"

	"github.com/mongoload/mongoload/internal/capture/source"
)

// Every source misses something, and a workload that looks complete
// hides it: a mix of slow operations replayed as the whole traffic, a
// read-only capture of a write-heavy application. blindSpots says, per
// source, what it could not see, for the header and the summary.

// readKinds are what $queryStats records.
var readKinds = map[string]bool{source.KindFind: true, source.KindAggregate: true, source.KindCount: true, source.KindDistinct: true}

// blindSpots lists what the sources could not see.
func (r *Result) blindSpots() []string {
	var out []string
	hasKind := func(kinds ...string) bool {
		for _, sh := range r.Shapes.Order {
			for _, k := range kinds {
				if sh.Kind == k {
					return true
				}
			}
		}
		return false
	}
	onlyQueryStats := true
	for _, s := range r.Sources {
		onlyQueryStats = onlyQueryStats && s.Name == "$queryStats"
	}
	for _, s := range r.Sources {
		switch {
		case strings.HasPrefix(s.Name, "profiler export"):
			out = append(out, s.Name+": an export says nothing of the profiler's level, slowms or sample rate: whatever it did not record (fast operations under slowms, unsampled ones) is missing, unknown")
		case strings.HasPrefix(s.Name, "profiler"):
			if !s.Complete {
				out = append(out, "profiler: operations faster than slowms were not recorded: the mix is that of the slow operations, the fast ones (often most of the traffic) are missing")
			}
		case strings.HasPrefix(s.Name, "log"):
			out = append(out, "log: only operations slower than slowms are logged (100 ms by default): the mix is that of the slow operations, the fast ones are missing unless the server ran with slowms 0")
			if hasKind(source.KindInsert) {
				out = append(out, "log: an insert's logged command holds no documents (MongoDB 6.0 and later omit them): inserted documents are made from the collection's template")
			}
		case s.Name == "$queryStats":
			if onlyQueryStats {
				out = append(out, "$queryStats: writes (insert, update, delete, findAndModify) are not recorded: the workload holds the reads only; read the profiler or the log too for the writes")
			}
			out = append(out, "$queryStats: literals are placeholders (?string, ?number): values come from the sampled collections, not from the queries")
		}
		if s.Sampling > 0 && s.Sampling < 1 {
			out = append(out, fmt.Sprintf("%s: sampleRate %g: about one operation in %.0f was recorded; counts are divided by it, and a shape rarer than that in the window may be missing", s.Name, s.Sampling, 1/s.Sampling))
		}
	}
	return out
}
