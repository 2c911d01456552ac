package cli

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/builtin"
	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// withDatabase puts db in a connection string's path, where YCSB's
// mongodb.url names its database.
func withDatabase(uri, db string) string {
	if i := strings.Index(uri, "/?"); i >= 0 {
		return uri[:i] + "/" + db + uri[i+1:]
	}
	if i := strings.Index(uri, "?"); i >= 0 {
		return uri[:i] + "/" + db + uri[i:]
	}
	return strings.TrimSuffix(uri, "/") + "/" + db
}

// uniqueYCSB writes the built-in YCSB workload name with a database of its
// own, so test runs never meet.
func uniqueYCSB(t *testing.T, name string) string {
	data, ok := builtin.Get(name)
	if !ok {
		t.Fatalf("no built-in %s", name)
	}
	db := fmt.Sprintf("ml_%s_%d", strings.ReplaceAll(name, "-", "_"), time.Now().UnixNano()%1e6)
	return writeFile(t, name+".yaml", strings.Replace(string(data), "database: ycsb", "database: "+db, 1))
}

// checkYCSBOutput checks the YCSB summary against the results file: one
// section per operation that ran, with its count and Return=OK.
func checkYCSBOutput(t *testing.T, stdout string, res *results.Result) {
	t.Helper()
	if !regexp.MustCompile(`(?m)^\[OVERALL\], RunTime\(ms\), \d+$`).MatchString(stdout) ||
		!regexp.MustCompile(`(?m)^\[OVERALL\], Throughput\(ops/sec\), [0-9.E]+$`).MatchString(stdout) {
		t.Errorf("no [OVERALL] lines:\n%s", stdout)
	}
	for _, op := range res.Operations {
		for _, line := range []string{
			fmt.Sprintf("[%s], Operations, %d\n", op.Name, op.Count),
			fmt.Sprintf("[%s], Return=OK, %d\n", op.Name, op.Count),
			fmt.Sprintf("[%s], 95thPercentileLatency(us), ", op.Name),
		} {
			if !strings.Contains(stdout, line) {
				t.Errorf("YCSB output lacks %q:\n%s", line, stdout)
			}
		}
	}
}

// checkShare checks that op had a share p of n operations, within five
// standard deviations of the binomial.
func checkShare(t *testing.T, res *results.Result, name string, p float64) {
	t.Helper()
	n := float64(res.Totals.Operations)
	for _, op := range res.Operations {
		if op.Name == name {
			if tol := 5 * math.Sqrt(n*p*(1-p)); math.Abs(float64(op.Count)-n*p) > tol {
				t.Errorf("%s ran %d of %.0f operations, want %.0f ± %.0f", name, op.Count, n, n*p, tol)
			}
			return
		}
	}
	t.Errorf("no operation %s", name)
}

// TestRunYCSBWorkloadA runs the built-in YCSB A end to end with YCSB's
// output: 3,000 operations, half reads and half updates, none failing,
// over the 1,000 records it loads first.
func TestRunYCSBWorkloadA(t *testing.T) {
	uri := testserver.URI(t)
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", uniqueYCSB(t, "ycsb-a"), "--uri", uri,
		"--operations", "3000", "--duration", "0", "--concurrency", "4", "--format", "ycsb", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Totals.Operations != 3000 || res.Totals.Errors != 0 || len(res.Operations) != 2 {
		t.Fatalf("%d operations, %d errors, %d operation types; want 3000, 0, READ and UPDATE", res.Totals.Operations, res.Totals.Errors, len(res.Operations))
	}
	checkShare(t, res, "READ", 0.5)
	checkShare(t, res, "UPDATE", 0.5)
	checkYCSBOutput(t, stdout, res)
	if !strings.Contains(stderr, "/1000 documents") {
		t.Errorf("the 1,000 records were not loaded first:\n%s", stderr)
	}
	if !regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3} \d+ sec: 3000 operations; [0-9.]+ current ops/sec; \[READ: Count=\d+, Max=\d+, Min=\d+, Avg=[0-9.]+, 50=\d+, 90=\d+, 99=\d+, 99.9=\d+, 99.99=\d+\] \[UPDATE: `).MatchString(stderr) {
		t.Errorf("no final YCSB status line:\n%s", stderr)
	}
	checkYCSBHeader(t, stderr, stdout)
}

// checkYCSBHeader reads the output as PerfKitBenchmarker's YCSB parser
// does (ycsb_stats.ParseResults over stderr then stdout): before the first
// [OVERALL] line, the line starting "Command line:" is the command and one
// starting "YCSB Client 0." the client. YCSB's Client prints, on stderr,
// "Command line:" and the arguments, "YCSB Client <version>", an empty
// line, "Loading workload..." and "Starting test.", before any status line.
func checkYCSBHeader(t *testing.T, stderr, stdout string) {
	t.Helper()
	command, client := "unknown", ""
	for _, line := range strings.Split(stderr+stdout, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[OVERALL]") {
			break
		}
		if strings.HasPrefix(line, "YCSB Client 0.") {
			client = line
		}
		if strings.HasPrefix(line, "Command line:") {
			command = line
		}
	}
	if !strings.HasPrefix(command, "Command line: run ") || !strings.Contains(command, "--format ycsb") {
		t.Errorf("the command reads as %q, want this run's arguments", command)
	}
	if client != "YCSB Client "+report.YCSBVersion+" (mongoload "+Version+")" {
		t.Errorf("the client reads as %q", client)
	}
	head := regexp.MustCompile(`(?m)^Command line: .*\nYCSB Client .*\n\nLoading workload\.\.\.\nStarting test\.\n`).FindStringIndex(stderr)
	status := regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d .* sec: `).FindStringIndex(stderr)
	if head == nil || status != nil && status[0] < head[0] {
		t.Errorf("YCSB's header lines are not in YCSB's order before the status lines:\n%s", stderr)
	}
}

// TestYCSBHeaderRedacts checks that the command line YCSB's header repeats
// never shows a password: in --uri, in -p mongodb.url=, or --password.
func TestYCSBHeaderRedacts(t *testing.T) {
	tests := []struct{ args, want []string }{
		{[]string{"run", "--uri", "mongodb://u:secret@h:27017/?w=1"}, []string{"run", "--uri", "mongodb://u:xxxxx@h:27017/?w=1"}},
		{[]string{"-p", "mongodb.url=mongodb+srv://u:secret@h/ycsb"}, []string{"-p", "mongodb.url=mongodb+srv://u:xxxxx@h/ycsb"}},
		{[]string{"--uri=mongodb://u:secret@h"}, []string{"--uri=mongodb://u:xxxxx@h"}},
		{[]string{"--password", "secret", "--password=secret"}, []string{"--password", "xxxxx", "--password=xxxxx"}},
		{[]string{"-P", "workloads/workloada", "--uri", "mongodb://h"}, []string{"-P", "workloads/workloada", "--uri", "mongodb://h"}},
	}
	for _, tt := range tests {
		var b strings.Builder
		out := output{format: "ycsb"}
		out.ycsbHeader(IO{Stderr: &b}, tt.args[0], tt.args[1:])
		want := "Command line: " + strings.Join(tt.want, " ") + "\n"
		if got := b.String(); !strings.HasPrefix(got, want) || strings.Contains(got, "secret") {
			t.Errorf("%q: header\n%s\nwant first line %q", tt.args, got, want)
		}
	}
}

// workloadE is YCSB's workloads/workloade, as YCSB ships it.
const workloadE = `# Yahoo! Cloud System Benchmark
# Workload E: Short ranges
#   Application example: threaded conversations, where each scan is for the posts in a given thread (assumed to be clustered by thread id)
#
#   Scan/insert ratio: 95/5
#   Default data size: 1 KB records (10 fields, 100 bytes each, plus key)
#   Request distribution: zipfian

recordcount=1000
operationcount=1000
workload=site.ycsb.workloads.CoreWorkload

readallfields=true

readproportion=0
updateproportion=0
scanproportion=0.95
insertproportion=0.05

requestdistribution=zipfian

maxscanlength=100

scanlengthdistribution=uniform
`

// TestRunYCSBWorkloadE runs YCSB's workloade property file unchanged, with
// -p overrides as YCSB users write them: scans and inserts in a 95/5 mix,
// the inserted keys reachable, nothing failing.
func TestRunYCSBWorkloadE(t *testing.T) {
	uri := testserver.URI(t)
	p := writeFile(t, "workloade", workloadE)
	db := fmt.Sprintf("ml_ycsb_e_%d", time.Now().UnixNano()%1e6)
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", "-P", p, "-p", "operationcount=2000",
		"-p", "threadcount=4", "-p", "mongodb.url="+withDatabase(uri, db), "--format", "ycsb", "--out", out,
		// The warnings asked about are the file's: a 2 s run's own serverStatus
		// samples can pass client.telemetry's 1% warning on a busy host.
		"--server-telemetry=false")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if strings.Contains(stderr, "warning:") {
		t.Errorf("YCSB's own workloade gave warnings:\n%s", stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Totals.Operations != 2000 || res.Totals.Errors != 0 || len(res.Operations) != 2 {
		t.Fatalf("%d operations, %d errors, %d operation types; want 2000, 0, INSERT and SCAN", res.Totals.Operations, res.Totals.Errors, len(res.Operations))
	}
	checkShare(t, res, "SCAN", 0.95)
	checkShare(t, res, "INSERT", 0.05)
	checkYCSBOutput(t, stdout, res)
	if res.Workload.Name != "workloade" || res.Load.Concurrency != 4 {
		t.Errorf("workload %q with %d workers, want workloade with threadcount=4", res.Workload.Name, res.Load.Concurrency)
	}
}

// TestYCSBCommandLine protects the YCSB command line without a server:
// built-ins by name, property files and their errors, and warnings.
func TestYCSBCommandLine(t *testing.T) {
	wa := writeFile(t, "workloada", "recordcount=1000\noperationcount=1000\nreadproportion=0.5\nupdateproportion=0.5\nrequestdistribution=zipfian\nkeylengthdistribution=extremevalue\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // a fragment of stdout, if any
		stderr string // a fragment of stderr, if any
	}{
		// every built-in YCSB workload is listed
		{"workloads", []string{"workloads"}, ExitOK, "ycsb-f           YCSB F (read-modify-write)", ""},
		// a built-in YCSB workload by name
		{"builtin by name", []string{"run", "ycsb-d", "--print-config"}, ExitOK, "distribution: latest", ""},
		// a property file with -p overrides; the unknown property warns once
		{"property file", []string{"run", "--ycsb", wa, "-p", "recordcount=5000", "-p", "threadcount=8", "--print-config"}, ExitOK, "seed: 5000",
			"warning: " + wa + ":6: keylengthdistribution is a YCSB property mongoload does not support: it is ignored\n"},
		// flags still win over the properties
		{"flags win", []string{"run", "-P", wa, "-p", "threadcount=8", "--concurrency", "2", "--print-config"}, ExitOK, "concurrency: 2", ""},
		// a bad value names the property and the fix
		{"bad value", []string{"run", "-P", wa, "-p", "recordcount=lots"}, ExitInvalid, "", `recordcount: "lots" is not a whole number of 0 or more (in -p recordcount=lots)`},
		// a missing property file
		{"missing file", []string{"run", "-P", "nope/workloadz"}, ExitUnreadable, "", "nope/workloadz: cannot read YCSB property file"},
		// -p without a property file
		{"-p alone", []string{"run", "-p", "recordcount=10"}, ExitUsage, "", "give the property file with --ycsb (-P)"},
		// a workload and property files together
		{"both", []string{"run", "ycsb-a", "-P", wa}, ExitUsage, "", "give either a workload (ycsb-a) or --ycsb property files, not both"},
		// an unknown format
		{"format", []string{"run", "ycsb-a", "--format", "ycbs"}, ExitUsage, "", `--format "ycbs": choose console or ycsb (did you mean "ycsb"?)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, context.Background(), nil, tt.args...)
			if code != tt.code || !strings.Contains(stdout, tt.stdout) || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
		})
	}
}
