package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestIndexedJob applies deploy/kubernetes's manifests with kubectl, as a
// user does, to a control plane built from Kubernetes's own code (the
// cluster script), whose nodes run pods as processes, against the project's
// test server: 4 pods, then 8 on the same nodes, then 4 of which one is
// deleted while it runs. Run it with `make test-k8s` (root; the first run
// builds Kubernetes).
func TestIndexedJob(t *testing.T) {
	if os.Getenv("MONGOLOAD_TEST_K8S") == "" {
		t.Skip("set MONGOLOAD_TEST_K8S=1 (make test-k8s): starts a Kubernetes control plane, needs root")
	}
	repo, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	c := &cluster{t: t, repo: repo}
	c.uri = lastLine(t, c.sh(filepath.Join(repo, "scripts/testserver"), "start", "k8s-e2e"))
	t.Cleanup(func() { _, _ = c.run(filepath.Join(repo, "scripts/testserver"), "stop", "k8s-e2e") })
	script := filepath.Join(repo, "deploy/kubernetes/e2e/cluster")
	t.Cleanup(func() { _, _ = c.run(script, "stop") })
	c.kubeconfig = lastLine(t, c.sh(script, "start"))
	c.script = script
	// README step 4: the data is loaded once, before the Job. (Pods that all
	// seed a new collection at once race on mongoload's ownership mark:
	// one creates it, another finds it unmarked and refuses to write.)
	wl := filepath.Join(t.TempDir(), "workload.yaml")
	if err := os.WriteFile(wl, []byte(strings.ReplaceAll(workload("20s"), "\n    ", "\n")[4:]), 0o644); err != nil {
		t.Fatal(err)
	}
	c.sh(filepath.Join(filepath.Dir(c.kubeconfig), "bin", "mongoload"), "load", wl, "--uri", c.uri)
	nodes := c.nodes()
	if len(nodes) < 2 {
		t.Fatalf("%d nodes Ready, at least 2 wanted", len(nodes))
	}

	t.Run("4 pods", func(t *testing.T) {
		c.t = t
		dir := c.runJob("four", 4, "20s", nil)
		c.checkWhole(dir, 4)
		c.mergeJob("four")
		c.checkMerged(dir, 4)
	})
	t.Run("8 pods on the same nodes", func(t *testing.T) {
		c.t = t
		dir := c.runJob("eight", 8, "20s", nil)
		c.checkWhole(dir, 8)
		c.mergeJob("eight")
		c.checkMerged(dir, 8)
	})
	t.Run("a pod deleted while it runs", func(t *testing.T) {
		c.t = t
		dir := c.runJob("killed", 4, "60s", func(start time.Time) {
			pod := c.runningPod(2)
			time.Sleep(time.Until(start.Add(5 * time.Second))) // into the measured phase
			c.kubectl("delete", "pod", pod, "--grace-period=0", "--wait=false")
		})
		c.mergeJob("killed")
		m := readResult(t, filepath.Join(dir, "merged.json"))
		notes := strings.Join(m.Notes, "\n")
		if !strings.Contains(notes, "partition 2/4") {
			t.Errorf("the merge of a run whose pod 2 was deleted names no partition 2/4:\n%s", notes)
		}
		t.Logf("merged.json's notes on the missing share: %s", grepLines(notes, "partition"))
	})
}

// checkWhole: every pod i ran partition i/n into part-i.json, and their
// measured phases started within one second of each other.
func (c *cluster) checkWhole(dir string, n int) {
	t := c.t
	var starts []time.Time
	for i := range n {
		r := readResult(t, filepath.Join(dir, fmt.Sprintf("part-%d.json", i)))
		if want := fmt.Sprintf("%d/%d", i, n); r.Config.Run.Partition != want || r.Load.Partition != want {
			t.Errorf("part-%d.json ran partition %q (load %q), want %s", i, r.Config.Run.Partition, r.Load.Partition, want)
		}
		if r.Totals.Operations == 0 || r.Outcome != "completed" {
			t.Errorf("part-%d.json: %d operations, outcome %s", i, r.Totals.Operations, r.Outcome)
		}
		starts = append(starts, r.StartedAt)
	}
	spread := slices.MaxFunc(starts, time.Time.Compare).Sub(slices.MinFunc(starts, time.Time.Compare))
	t.Logf("%d parts' measured phases started within %s", n, spread)
	if spread > time.Second {
		t.Errorf("the parts' measured phases started %s apart, more than 1 s", spread)
	}
}

// checkMerged: the merge Job's merged.json counts the parts' operations.
func (c *cluster) checkMerged(dir string, n int) {
	t := c.t
	var sum int64
	for i := range n {
		sum += readResult(t, filepath.Join(dir, fmt.Sprintf("part-%d.json", i))).Totals.Operations
	}
	m := readResult(t, filepath.Join(dir, "merged.json"))
	if m.Totals.Operations != sum || sum == 0 {
		t.Errorf("merged.json counts %d operations, the %d parts %d", m.Totals.Operations, n, sum)
	}
	for _, note := range m.Notes {
		if strings.Contains(note, "partition") {
			t.Errorf("a whole run's merge notes a partition: %s", note)
		}
	}
	t.Logf("merged.json: %d operations = the %d parts' sum", sum, n)
}

// runJob applies support.yaml and job.yaml for run id with n partitions,
// calls during (if any) once the pods are up, and waits for the Job's end:
// complete without during, failed with it. It returns the run's directory
// on the results volume.
func (c *cluster) runJob(id string, n int, duration string, during func(start time.Time)) string {
	t := c.t
	c.kubectl("delete", "job", "mongoload", "mongoload-merge", "--ignore-not-found", "--wait=true")
	start := time.Now().Add(25 * time.Second).Truncate(time.Second)
	support := c.manifest("support.yaml", func(s string) string { return editSupport(s, id, c.uri, start, duration) })
	job := c.manifest("job.yaml", func(s string) string { return editCount(s, n) })
	c.kubectl("apply", "-f", support, "-f", job)
	want := "Complete"
	if during != nil {
		during(start)
		want = "Failed"
	}
	if got := c.waitJob("mongoload", 300*time.Second); got != want {
		t.Fatalf("Job mongoload ended %s, want %s; pods:\n%s", got, want, c.kubectl("get", "pods", "-o", "wide"))
	}
	placement := c.kubectl("get", "pods", "-l", "job-name=mongoload", "--no-headers", "-o",
		"custom-columns=INDEX:.metadata.labels.batch\\.kubernetes\\.io/job-completion-index,NODE:.spec.nodeName,PHASE:.status.phase")
	t.Logf("pods (index, node, phase):\n%s", placement)
	return filepath.Join(lastLine(t, c.sh(c.script, "volume", "mongoload-results")), id)
}

// mergeJob applies merge-job.yaml and waits for it.
func (c *cluster) mergeJob(id string) {
	c.kubectl("apply", "-f", c.manifest("merge-job.yaml", func(s string) string { return s }))
	if got := c.waitJob("mongoload-merge", 120*time.Second); got != "Complete" {
		c.t.Fatalf("the merge Job of %s ended %s", id, got)
	}
}

// editSupport makes the changes a user makes to support.yaml: the workload
// (finds and updates by key at 2,000 ops/s), the run id, the start time,
// the target's URI (the test server has no users).
func editSupport(s, id, uri string, start time.Time, duration string) string {
	wl := workload(duration)
	s = regexp.MustCompile(`(  workload.yaml: \|\n)(?:    .*\n|\s*\n)+`).ReplaceAllLiteralString(s, "  workload.yaml: |\n"+wl)
	s = regexp.MustCompile(`runId: .*`).ReplaceAllLiteralString(s, "runId: "+id)
	s = regexp.MustCompile(`startAt: .*`).ReplaceAllLiteralString(s, `startAt: "`+start.UTC().Format(time.RFC3339)+`"`)
	s = regexp.MustCompile(`  uri: .*`).ReplaceAllLiteralString(s, "  uri: "+uri)
	return regexp.MustCompile(`  username: .*\n  password: .*\n`).ReplaceAllLiteralString(s, "")
}

// workload is the workload of the runs, as support.yaml holds it: finds
// and updates by key at 2,000 ops/s.
func workload(duration string) string {
	return "    name: k8s-e2e\n    collections:\n      - database: k8se2e\n        name: items\n        template:\n" +
		"          k: {$gen: key}\n          n: {$gen: int, min: 0, max: 100}\n        indexes: [{keys: {k: 1}}]\n" +
		"    operations:\n      - {name: get, type: findOne, weight: 80, filter: {k: {$gen: key}}}\n" +
		"      - {name: bump, type: updateOne, weight: 20, filter: {k: {$gen: key}}, update: {$inc: {n: 1}}}\n" +
		"    run: {rate: 2000, duration: " + duration + ", warmup: 2s, seed: 2000}\n"
}

// editCount sets N: completions, parallelism and PARTITIONS.
func editCount(s string, n int) string {
	s = regexp.MustCompile(`completions: \d+`).ReplaceAllString(s, fmt.Sprintf("completions: %d", n))
	s = regexp.MustCompile(`parallelism: \d+`).ReplaceAllString(s, fmt.Sprintf("parallelism: %d", n))
	return regexp.MustCompile(`(name: PARTITIONS, value: )"\d+"`).ReplaceAllString(s, fmt.Sprintf(`${1}"%d"`, n))
}

func grepLines(s, word string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, word) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "; ")
}
