package cli

import (
	"context"
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mongoload/mongoload/internal/testserver"
)

var dashboardShot = flag.String("dashboard-screenshot", "", "write the dashboard test's screenshot to this PNG file (docs/img/dashboard.png)")

// browser finds a headless Chromium. Without one the test fails, unless
// MONGOLOAD_SKIP_BROWSER=1 says to skip (make test installs it).
func browser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("MONGOLOAD_SKIP_BROWSER") == "1" {
		t.Skip("browser test skipped: no chromium and MONGOLOAD_SKIP_BROWSER=1")
	}
	t.Fatal("no chromium to check the dashboard in: run scripts/install-browser (apt-get install chromium), or set MONGOLOAD_SKIP_BROWSER=1 to skip")
	return ""
}

// freePort finds a loopback port nobody listens on.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestDashboardInBrowser runs a workload against the real server with
// --dashboard and follows it in headless Chromium: the page loads, its
// charts receive data while the run goes on, and at the end it shows the
// final report and offers the HTML report for download. The run's last
// interval, 0.3 s of 1 s, is marked partial and left out of the charts.
func TestDashboardInBrowser(t *testing.T) {
	bin := browser(t)
	uri := testserver.URI(t)
	port := freePort(t)
	base := "http://127.0.0.1:" + strconv.Itoa(port) + "/"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan runOutcome, 1)
	go func() {
		code, stdout, stderr := runCLI(t, ctx, nil, "run", uniqueDB(t, unindexed), "--uri", uri, "--duration", "11.3s", "--seed", "3000",
			"--concurrency", "3", "--slow", "2ms", "--explain", "3", "--drop", "--quiet",
			"--dashboard", strconv.Itoa(port), "--dashboard-linger", "60s") // the test ends the linger
		done <- runOutcome{code, stdout, stderr}
	}()
	waitUp(t, base, done)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	if err := chromedp.Do(bctx, chromedp.Navigate(base)); err != nil { // the first Run starts the browser: no timeout on it
		t.Fatalf("the page did not load: %v", err)
	}
	tctx, tcancel := context.WithTimeout(bctx, 90*time.Second)
	defer tcancel()
	eval := func(expr string) int {
		n, err := chromedp.Run(tctx, chromedp.Evaluate[int](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return n
	}
	if err := chromedp.Do(tctx, chromedp.WaitVisible(chromedp.CSS(`#c-throughput canvas`)), poll(`Number(document.body.dataset.points) >= 6`)); err != nil {
		t.Fatalf("the page did not receive data during the run: %v", err)
	}
	points, charts, canvases := eval(`Number(document.body.dataset.points)`), eval(`Number(document.body.dataset.charts)`), eval(`document.querySelectorAll("canvas").length`)
	state, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.body.dataset.state`))
	// The charts hold what the page received: the throughput chart's x
	// series has a point per interval.
	xs := eval(`window.mongoloadDashboard.intervals.length`)
	if charts != 6 || canvases < 6 || state != "running" || xs < 2 {
		t.Errorf("during the run: %d points, %d intervals, %d charts, %d canvases, state %q", points, xs, charts, canvases, state)
	}
	if err := chromedp.Do(tctx, poll(`document.body.dataset.state === "finished" && document.querySelector('#links a') !== null`)); err != nil {
		t.Fatalf("the page did not show the end of the run: %v", err)
	}
	// The last interval (0.3 s of 1 s) is marked partial and not drawn:
	// the throughput chart has a point per whole interval.
	partial, whole, drawn := eval(`mongoloadDashboard.intervals.filter((s) => s.partial).length`),
		eval(`mongoloadDashboard.intervals.filter((s) => !s.partial).length`), eval(`mongoloadDashboard.chartPoints("c-throughput")`)
	if partial != 1 || whole < 10 || drawn != whole {
		t.Errorf("%d partial and %d whole intervals, %d drawn; want 1 partial, every whole one drawn and only them", partial, whole, drawn)
	}
	finalShown, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`!document.getElementById("final").hidden`))
	link, _ := chromedp.Run(tctx, chromedp.AttributeValue(chromedp.CSS(`#links a`), "href"))
	text, _ := chromedp.Run(tctx, chromedp.Text(chromedp.CSS(`#final-body`)))
	scriptErr, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.body.dataset.scriptError || ""`))
	if !finalShown || link.Value != "/report.html" || !strings.Contains(text, "COLLSCAN") || scriptErr != "" {
		t.Errorf("final report shown %v, link %q, script error %q, text:\n%.600s", finalShown, link.Value, scriptErr, text)
	}
	shot, err := chromedp.Run(tctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := *dashboardShot
	if path == "" {
		path = t.TempDir() + "/dashboard.png"
	}
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(base + "report.html")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "<html") || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("report.html: %d %q %.200s", resp.StatusCode, resp.Header.Get("Content-Disposition"), page)
	}
	cancel() // ends the linger
	select {
	case o := <-done:
		if o.code != 0 || !strings.Contains(o.stderr, "dashboard on "+base) || !strings.Contains(o.stderr, "stays at") {
			t.Errorf("exit %d\n%s\n%s", o.code, o.stdout, o.stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the run did not end after the linger was cut")
	}
}

// runOutcome is how an in-process command ended.
type runOutcome struct {
	code           int
	stdout, stderr string
}

// waitUp waits for the dashboard to answer, or the run to end first.
func waitUp(t *testing.T, base string, done <-chan runOutcome) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(base + "api/run"); err == nil {
			resp.Body.Close()
			return
		}
		select {
		case o := <-done:
			t.Fatalf("the run ended before its dashboard answered: exit %d\n%s\n%s", o.code, o.stdout, o.stderr)
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatal("the dashboard never answered")
}

// poll waits until expr is true in the page.
func poll(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second))
}
