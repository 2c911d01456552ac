package html

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// pages are the three kinds of report, from deterministic data.
func pages(t *testing.T) map[string]Page {
	t.Helper()
	steps := resultstest.Seed000()
	cpu := 3.6
	for i := range steps {
		steps[i].Server = resultstest.ServerSample(0.3+0.05*float64(i), 0.02, &cpu)
	}
	sw := resultstest.Sweep("concurrency", "primary", steps)
	a, err := analysis.AnalyseSweep(sw, analysis.DefaultSweepOptions())
	if err != nil {
		t.Fatal(err)
	}
	sw.Analysis = a
	other := resultstest.Seed000()
	for i := range other {
		other[i].LatencyMs *= 0.76
	}
	sw2 := resultstest.Sweep("concurrency", "secondaryPreferred", other)
	in := []analysis.CompareInput{{File: "primary.json", Sweep: sw}, {File: "secondary.json", Sweep: sw2}}
	obj, _ := analysis.ParseRelObjective("p99<=-10%")
	c, err := analysis.Compare(in, 0, []analysis.RelObjective{obj})
	if err != nil {
		t.Fatal(err)
	}
	res := sw.Steps[3].Result
	return map[string]Page{
		"result":  {Result: res},
		"sweep":   {Sweep: sw},
		"compare": {Comparison: c, Inputs: []Input{{Label: "primary", Sweep: sw}, {Label: "secondaryPreferred", Sweep: sw2}}},
	}
}

// TestGolden compares each page, the vendored library left out, with its
// golden file.
func TestGolden(t *testing.T) {
	for name, p := range pages(t) {
		var b bytes.Buffer
		if err := Write(&b, p); err != nil {
			t.Fatal(err)
		}
		got := strings.Replace(b.String(), uPlotJS, "/* uPlot "+uPlotVersion+" */", 1)
		path := filepath.Join("testdata", name+".golden.html")
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs from %s (run go test -update to accept it)", name, path)
		}
	}
}

// TestSelfContained: nothing on the page is fetched from elsewhere.
func TestSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, pages(t)["sweep"]); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{`<script src=`, `<link `, `@import`, `url(http`} {
		if strings.Contains(page, bad) {
			t.Errorf("the page loads something from outside: %q", bad)
		}
	}
	if !strings.Contains(page, uPlotJS) || !strings.Contains(page, "The MIT License") {
		t.Error("uPlot or its license is not inlined")
	}
}

// chromium finds a headless browser. Without one the test fails, unless
// MONGOLOAD_SKIP_BROWSER=1 says to skip.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("MONGOLOAD_SKIP_BROWSER") == "1" {
		t.Skip("browser test skipped: no chromium and MONGOLOAD_SKIP_BROWSER=1")
	}
	t.Fatal("no chromium to check the HTML report in: run scripts/install-browser (apt-get install chromium), or set MONGOLOAD_SKIP_BROWSER=1 to skip")
	return ""
}

// headless runs chromium on a file with extra arguments and returns its
// stdout and stderr.
func headless(t *testing.T, bin, file string, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
		"--no-first-run", "--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}
	cmd := exec.CommandContext(ctx, bin, append(append(base, args...), "file://"+file)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	return out.String(), errb.String()
}

var scriptError = regexp.MustCompile(`<body[^>]*data-script-error`)

var bodyAttrs = regexp.MustCompile(`<body[^>]* data-charts-rendered="(\d+)" data-charts-expected="(\d+)"`)

// TestInBrowser opens every kind of page in headless Chromium and checks
// that every chart was drawn (a canvas each) and no script failed.
func TestInBrowser(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	for name, p := range pages(t) {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(dir, name+".html")
			if err := WriteFile(file, p); err != nil {
				t.Fatal(err)
			}
			dom, logs := headless(t, bin, file, "--dump-dom")
			if scriptError.MatchString(dom) || strings.Contains(logs, "Uncaught") {
				t.Fatalf("a script failed:\n%s", logs)
			}
			m := bodyAttrs.FindStringSubmatch(dom)
			if m == nil {
				t.Fatalf("the charts script did not finish; the page:\n%.2000s\nlogs:\n%s", dom, logs)
			}
			if m[1] != m[2] || m[1] == "0" {
				t.Errorf("%s of %s charts drawn", m[1], m[2])
			}
			if n := strings.Count(dom, "<canvas"); n < 1 || m[1] != strconv.Itoa(n) {
				t.Errorf("%d canvases for %s charts", n, m[1])
			}
			if name == "sweep" && !strings.Contains(dom, "Sweet spot") {
				t.Error("no verdict on the sweep page")
			}
		})
	}
}
