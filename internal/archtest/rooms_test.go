package archtest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The rules of the house (docs/architecture.md): each capability is a room
// built on internal/run, and the command layer only chooses, renders and
// exits. These keep it so; each rule is a function over the files read, so
// a test can show it fails.

// commandLayer may not reach below the run: the engine, the driver, the
// loader and the trace format belong to the rooms that use them.
var commandLayerForbids = []string{"internal/engine", "internal/mongodb", "internal/loader", "internal/trace"}

const (
	maxFileLines    = 400  // a file longer than this does more than one thing
	maxCommandLines = 2300 // the whole of internal/cli, tests aside
)

func TestCommandLayerIsThin(t *testing.T) {
	for _, b := range commandLayerViolations(tree(t)) {
		t.Error(b)
	}
}

func TestTraceFormatKnowsNoProducer(t *testing.T) {
	for _, b := range importViolations(tree(t), "internal/trace", []string{"internal/capture"},
		"the trace format is read by replay and written by capture: it knows neither") {
		t.Error(b)
	}
}

func TestNoLongFiles(t *testing.T) {
	for _, b := range longFiles(tree(t)) {
		t.Error(b)
	}
}

func TestArchitectureDocNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range unnamedPackages(tree(t), string(doc)) {
		t.Errorf("docs/architecture.md does not name %s: add its row to the package table", p)
	}
}

// TestRoomRulesCatch: each rule finds what it is for in a tree made for it,
// and passes over test files.
func TestRoomRulesCatch(t *testing.T) {
	files := []goFile{
		{path: "internal/cli/ab.go", imports: []string{"internal/ab", "internal/mongodb"}, lines: 2000},
		{path: "internal/cli/ab_test.go", test: true, imports: []string{"internal/engine"}, lines: 900},
		{path: "internal/cli/run.go", lines: 301},
		{path: "internal/trace/write.go", imports: []string{"internal/capture/source"}, lines: 10},
		{path: "internal/ab/ab.go", lines: 401},
		{path: "internal/newroom/x.go", lines: 1},
	}
	if got := commandLayerViolations(files); len(got) != 2 ||
		!strings.Contains(got[0], "internal/cli/ab.go imports internal/mongodb") || !strings.Contains(got[1], "2301") {
		t.Errorf("command layer: %q", got)
	}
	if got := importViolations(files, "internal/trace", []string{"internal/capture"}, ""); len(got) != 1 {
		t.Errorf("trace imports: %q", got)
	}
	if got := longFiles(files); len(got) != 2 || !strings.Contains(got[0], "internal/cli/ab.go") || !strings.Contains(got[1], "internal/ab/ab.go") {
		t.Errorf("long files: %q", got)
	}
	doc := "| `internal/cli` | ... |\n| `internal/ab` | ... |\n| `internal/trace` | ... |\n"
	if got := unnamedPackages(files, doc); len(got) != 1 || got[0] != "internal/newroom" {
		t.Errorf("unnamed packages: %q", got)
	}
}

func commandLayerViolations(files []goFile) []string {
	bad := importViolations(files, "internal/cli", commandLayerForbids,
		"the command layer chooses, renders and exits; the room that needs it calls it")
	n := 0
	for _, f := range files {
		if !f.test && f.dir() == "internal/cli" {
			n += f.lines
		}
	}
	if n > maxCommandLines {
		bad = append(bad, fmt.Sprintf("internal/cli holds %d lines of non-test Go (at most %d): move the logic into the room it belongs to", n, maxCommandLines))
	}
	return bad
}

// importViolations lists the non-test files of pkg (itself, not below) that
// import one of forbidden or a package below one.
func importViolations(files []goFile, pkg string, forbidden []string, why string) []string {
	var bad []string
	for _, f := range files {
		if f.test || f.dir() != pkg {
			continue
		}
		for _, imp := range f.imports {
			for _, x := range forbidden {
				if under(imp, x) {
					bad = append(bad, f.path+" imports "+imp+": "+why)
				}
			}
		}
	}
	return bad
}

func longFiles(files []goFile) []string {
	var bad []string
	for _, f := range files {
		if !f.test && f.lines > maxFileLines {
			bad = append(bad, fmt.Sprintf("%s has %d lines (at most %d): split it by what each part does", f.path, f.lines, maxFileLines))
		}
	}
	return bad
}

// unnamedPackages lists the internal packages (directories holding Go
// files) that doc does not name in backquotes, as its package table does.
func unnamedPackages(files []goFile, doc string) []string {
	seen := map[string]bool{}
	for _, f := range files {
		if d := f.dir(); under(d, "internal") && d != "internal" && !seen[d] {
			seen[d] = true
		}
	}
	var missing []string
	for d := range seen {
		if !strings.Contains(doc, "`"+d+"`") && !strings.Contains(doc, "`"+strings.TrimPrefix(d, "internal/")+"`") {
			missing = append(missing, d)
		}
	}
	sort.Strings(missing)
	return missing
}
