package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
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
