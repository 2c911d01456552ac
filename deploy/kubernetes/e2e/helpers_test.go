package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// cluster is the running control plane and the test server, as the test
// drives them: through the scripts and kubectl.
type cluster struct {
	t               *testing.T
	repo, script    string
	uri, kubeconfig string
}

// run runs a command from the repository's root and returns its output.
func (c *cluster) run(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = c.repo
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// sh is run, failing the test on an error.
func (c *cluster) sh(name string, args ...string) string {
	c.t.Helper()
	out, err := c.run(name, args...)
	if err != nil {
		c.t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, tail(out, 20))
	}
	return out
}

func (c *cluster) kubectl(args ...string) string {
	c.t.Helper()
	return c.sh("kubectl", append([]string{"--kubeconfig", c.kubeconfig, "--request-timeout=30s"}, args...)...)
}

// manifest writes deploy/kubernetes/NAME, changed by edit, to a temporary
// file and returns its path.
func (c *cluster) manifest(name string, edit func(string) string) string {
	c.t.Helper()
	b, err := os.ReadFile(filepath.Join(c.repo, "deploy/kubernetes", name))
	if err != nil {
		c.t.Fatal(err)
	}
	p := filepath.Join(c.t.TempDir(), name)
	if err := os.WriteFile(p, []byte(edit(string(b))), 0o644); err != nil {
		c.t.Fatal(err)
	}
	return p
}

// nodes lists the Ready nodes.
func (c *cluster) nodes() []string {
	var out []string
	for _, l := range strings.Split(c.kubectl("get", "nodes", "--no-headers"), "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[1] == "Ready" {
			out = append(out, f[0])
		}
	}
	return out
}

// runningPod waits for the Running pod of Job mongoload's index i.
func (c *cluster) runningPod(i int) string {
	c.t.Helper()
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		out := c.kubectl("get", "pods", "-l", "job-name=mongoload,batch.kubernetes.io/job-completion-index="+strconv.Itoa(i),
			"-o", `jsonpath={range .items[?(@.status.phase=="Running")]}{.metadata.name}{"\n"}{end}`)
		if name := strings.TrimSpace(out); name != "" {
			return strings.Fields(name)[0]
		}
	}
	c.t.Fatalf("no Running pod of index %d in 90 s:\n%s", i, c.kubectl("get", "pods", "-o", "wide"))
	return ""
}

// waitJob waits for the Job's Complete or Failed condition and returns it.
func (c *cluster) waitJob(name string, timeout time.Duration) string {
	c.t.Helper()
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(time.Second) {
		out := c.kubectl("get", "job", name, "-o", `jsonpath={range .status.conditions[?(@.status=="True")]}{.type}{"\n"}{end}`)
		for _, cond := range strings.Fields(out) {
			if cond == "Complete" || cond == "Failed" {
				return cond
			}
		}
	}
	return "neither Complete nor Failed in " + timeout.String()
}

// result is what the test reads of a results file.
type result struct {
	StartedAt time.Time `json:"startedAt"`
	Outcome   string    `json:"outcome"`
	Notes     []string  `json:"notes"`
	Totals    struct {
		Operations int64 `json:"operations"`
	} `json:"totals"`
	Load struct {
		Partition string `json:"partition"`
	} `json:"load"`
	Config struct {
		Run struct {
			Partition string `json:"partition"`
		} `json:"run"`
	} `json:"config"`
}

func readResult(t *testing.T, path string) result {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r result
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

func lastLine(t *testing.T, out string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
