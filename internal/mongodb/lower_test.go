package mongodb

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/version"
)

// pinnedDriver is the driver release the fast path (lower.go, fast.go) was
// written against: its x/ packages have no compatibility promise.
const pinnedDriver = "2.10.0"

// pinnedLowerSymbols is every symbol of the driver's x/ packages that the
// fast path uses. A driver upgrade, or a new symbol, fails
// TestLowerLayerPinned until someone has checked the fast path against the
// new driver: that the public client still builds its deployment,
// sessions, retry modes and concerns as lower.go rebuilds them (mongo/
// client.go newClient and connect; mongo/collection.go), that the command
// fields in fastcmd.go are still those the public API sends, and that
// TestFastPathMatchesAPI and TestFastPathRetriesLikeAPI pass. Then update
// the pins.
var pinnedLowerSymbols = []string{
	"auth.CreateAuthenticator",
	"bsoncore.AppendBooleanElement", "bsoncore.AppendDocumentElement", "bsoncore.AppendDocumentEnd",
	"bsoncore.AppendDocumentStart", "bsoncore.AppendInt32Element", "bsoncore.AppendInt64Element",
	"bsoncore.AppendObjectIDElement", "bsoncore.AppendStringElement", "bsoncore.Document", "bsoncore.ReadElement",
	"description.SelectedServer",
	"driver.Authenticator", "driver.Batches", "driver.CursorOptions", "driver.CursorResponse",
	"driver.ErrUnacknowledgedWrite", "driver.Error", "driver.NewBatchCursor", "driver.NewCursorResponse", "driver.Operation",
	"driver.Read", "driver.ResponseInfo", "driver.RetryMode", "driver.RetryNone", "driver.RetryOncePerCommand",
	"driver.ServerAPIOptions", "driver.Write", "driver.WriteCommandError",
	"session.Client", "session.ClusterClock", "session.NewImplicitClientSession", "session.NewPool", "session.Pool",
	"topology.ConvertCreds", "topology.ErrTopologyClosed", "topology.New", "topology.NewAuthenticatorConfig",
	"topology.ServerAPIFromServerOptions", "topology.Topology", "topology.WithAuthConfigClientOptions",
	"topology.WithAuthConfigClock",
	"xoptions.SetInternalClientOptions",
}

// TestLowerLayerPinned fails loudly on a driver upgrade that could change
// what the fast path relies on (see pinnedLowerSymbols).
func TestLowerLayerPinned(t *testing.T) {
	if version.Driver != pinnedDriver {
		t.Fatalf("the driver is %s, the fast path (--driver-path fast) was checked against %s: re-check lower.go and fast.go against the new driver's mongo/client.go and mongo/collection.go, run TestFastPathMatchesAPI and TestFastPathRetriesLikeAPI, then update pinnedDriver", version.Driver, pinnedDriver)
	}
	got := lowerSymbols(t, "lower.go", "fast.go", "fastcmd.go")
	if !slices.Equal(got, pinnedLowerSymbols) {
		t.Fatalf("the fast path uses these x/ symbols of the driver:\n%s\nbut pins:\n%s\nA new x/ symbol has no compatibility promise: check it against the public API's use, then update pinnedLowerSymbols", strings.Join(got, "\n"), strings.Join(pinnedLowerSymbols, "\n"))
	}
}

// lowerSymbols lists pkg.Name for every selector on a package imported
// from the driver's x/ tree in files, sorted and unique.
func lowerSymbols(t *testing.T, files ...string) []string {
	t.Helper()
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		xpkgs := map[string]bool{}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "go.mongodb.org/mongo-driver/v2/x/") {
				xpkgs[path[strings.LastIndex(path, "/")+1:]] = true
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && xpkgs[id.Name] {
					seen[id.Name+"."+sel.Sel.Name] = true
				}
			}
			return true
		})
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}
