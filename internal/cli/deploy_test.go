package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestKubernetesManifests keeps deploy/kubernetes honest: the manifests
// parse, the Job is Indexed with completions = parallelism = PARTITIONS, each
// pod runs its own partition, and the example workload validates.
func TestKubernetesManifests(t *testing.T) {
	docs := map[string]map[string]any{}
	for _, f := range []string{"job.yaml", "merge-job.yaml", "support.yaml"} {
		data, err := os.ReadFile("../../deploy/kubernetes/" + f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var d map[string]any
			if err := dec.Decode(&d); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			meta := d["metadata"].(map[string]any)
			docs[d["kind"].(string)+"/"+meta["name"].(string)] = d
		}
	}
	job := docs["Job/mongoload"]["spec"].(map[string]any)
	if job["completionMode"] != "Indexed" || job["completions"] != job["parallelism"] {
		t.Fatalf("the generator Job must be Indexed with completions = parallelism: %v", job)
	}
	c := job["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
	args := c["args"].([]any)[0].(string)
	for _, want := range []string{"--partition \"${JOB_COMPLETION_INDEX}/${PARTITIONS}\"", "--start-at", "--out"} {
		if !strings.Contains(args, want) {
			t.Errorf("generator args lack %s: %s", want, args)
		}
	}
	for _, e := range c["env"].([]any) {
		e := e.(map[string]any)
		if e["name"] == "PARTITIONS" && e["value"] != strings.TrimSpace(strings.Trim(yamlString(job["completions"]), `"`)) {
			t.Errorf("PARTITIONS %v but completions %v", e["value"], job["completions"])
		}
	}
	workload := docs["ConfigMap/mongoload-workload"]["data"].(map[string]any)["workload.yaml"].(string)
	p := writeFile(t, "k8s.yaml", workload)
	if code, _, stderr := runCLI(t, context.Background(), nil, "validate", p); code != 0 {
		t.Fatalf("the example workload does not validate: %s", stderr)
	}
}

func yamlString(v any) string {
	b, _ := yaml.Marshal(v)
	return string(b)
}
