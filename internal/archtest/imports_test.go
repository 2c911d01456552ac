package archtest

import (
	"slices"
	"strings"
	"testing"
)

// driverClient is the MongoDB driver's client side; its data format package
// (bson) may be used anywhere, since generators write BSON.
var driverClient = []string{"go.mongodb.org/mongo-driver/v2/mongo", "go.mongodb.org/mongo-driver/v2/x/mongo"}

// allowed may import the driver client: the one driver package, and the
// floors that make bench measures mongoload against (bench/floor/client
// sends their operations; the ycsb floor counts the records with it).
var allowed = []string{"internal/mongodb", "bench/floor/client", "bench/floor/ycsb"}

// TestOnlyOnePackageImportsTheDriver keeps every other package testable and
// driver-agnostic (FerretDB enforces the same with depguard).
func TestOnlyOnePackageImportsTheDriver(t *testing.T) {
	for _, f := range tree(t) {
		for _, p := range f.external {
			if isDriverClient(p) && !slices.Contains(allowed, f.dir()) {
				t.Errorf("%s imports %s: only internal/mongodb talks to the driver", f.path, p)
			}
		}
	}
}

func isDriverClient(p string) bool {
	for _, d := range driverClient {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}
