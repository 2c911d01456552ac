package cli

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/testserver"
)

var exitRow = regexp.MustCompile(`(?m)^\| *(\d+) *\| *(.+?) *\|$`)

// documentedExits reads docs/exit-codes.md: code -> meaning.
func documentedExits(t *testing.T) map[int]string {
	t.Helper()
	data, err := os.ReadFile("../../docs/exit-codes.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	for _, m := range exitRow.FindAllStringSubmatch(string(data), -1) {
		n, _ := strconv.Atoi(m[1])
		if _, dup := out[n]; dup {
			t.Errorf("docs/exit-codes.md lists %d twice", n)
		}
		out[n] = m[2]
	}
	return out
}

// exitConstants reads the Exit* constants from exitcode.go's source, so a
// constant added without a row in the doc (or the reverse) fails here.
func exitConstants(t *testing.T) map[int]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "exitcode.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 || !strings.HasPrefix(vs.Names[0].Name, "Exit") {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
			v, _ := strconv.Atoi(lit.Value)
			out[v] = vs.Names[0].Name
		}
		return true
	})
	return out
}

// TestExitCodesDocumented: every exit code the code has is in
// docs/exit-codes.md, and every code the doc lists exists.
func TestExitCodesDocumented(t *testing.T) {
	doc, consts := documentedExits(t), exitConstants(t)
	if len(consts) < 10 {
		t.Fatalf("found only %d Exit constants in exitcode.go", len(consts))
	}
	for code, name := range consts {
		if _, ok := doc[code]; !ok {
			t.Errorf("%s = %d is not in docs/exit-codes.md", name, code)
		}
	}
	for code, meaning := range doc {
		if _, ok := consts[code]; !ok {
			t.Errorf("docs/exit-codes.md lists %d (%s), which no Exit constant has", code, meaning)
		}
	}
}

// docSays fails t unless the doc's row for code mentions every word.
func docSays(t *testing.T, code int, words ...string) {
	t.Helper()
	row, ok := documentedExits(t)[code]
	if !ok {
		t.Errorf("exit %d is not documented", code)
		return
	}
	for _, w := range words {
		if !strings.Contains(row, w) {
			t.Errorf("exit %d happened for %q, but docs/exit-codes.md says: %s", code, w, row)
		}
	}
}

// TestIndexFailureExitCode: an index the server cannot build (unique over
// documents that repeat the key) exits with the same code in run's setup
// and in load --indexes after, and docs/exit-codes.md says that code is
// for an index. The doc said 19 where run gave 22, and load gave 19.
func TestIndexFailureExitCode(t *testing.T) {
	uri := testserver.URI(t)
	name := uniqueName(t)
	plain := fmt.Sprintf(`
collections:
  - database: %s
    name: c
    template: {a: 1, k: {$gen: key}}
operations:
  - {name: g, type: findOne, weight: 1, filter: {k: {$gen: key}}}
`, name)
	unique := strings.Replace(plain, "template:", "indexes: [{keys: {a: 1}, unique: true}]\n    template:", 1)
	// Two documents with the same a, then a run that wants a unique index on a.
	if code, _, stderr := runCLI(t, context.Background(), nil, "run", writeFile(t, "plain.yaml", plain), "--uri", uri, "--seed", "2", "--operations", "1", "--duration", "0", "--quiet"); code != 0 {
		t.Fatalf("seeding: exit %d: %s", code, stderr)
	}
	u := writeFile(t, "unique.yaml", unique)
	// The collection exists: its indexes are left as they are unless asked
	// in words (issue 38), so the run asks.
	codeRun, _, stderr := runCLI(t, context.Background(), nil, "run", u, "--uri", uri, "--create-indexes", "--operations", "1", "--duration", "0", "--quiet")
	if !strings.Contains(stderr, "index") {
		t.Fatalf("run: exit %d without naming the index: %s", codeRun, stderr)
	}
	// The same through a load that builds its indexes after the data.
	u2 := writeFile(t, "unique2.yaml", strings.Replace(unique, "name: c", "name: d", 1))
	codeLoad, _, stderr := runCLI(t, context.Background(), nil, "load", u2, "--uri", uri, "--documents", "2", "--indexes", "after")
	if !strings.Contains(stderr, "index") {
		t.Fatalf("load: exit %d without naming the index: %s", codeLoad, stderr)
	}
	if codeRun != codeLoad || codeRun != ExitServerFailure {
		t.Errorf("an index failure exits %d in run and %d in load; want %d in both", codeRun, codeLoad, ExitServerFailure)
	}
	docSays(t, codeRun, "index")
}
