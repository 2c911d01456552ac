package process

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/virtual-kubelet/virtual-kubelet/node/nodeutil"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The test binary is also the containers' first process, as the kubelet's
// binary is.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == SandboxArg {
		fmt.Fprintln(os.Stderr, RunSandbox(os.Args[2]))
		os.Exit(128)
	}
	os.Exit(m.Run())
}

// pods records every status the provider reports.
type pods chan *corev1.Pod

func (ch pods) await(t *testing.T, phase corev1.PodPhase) *corev1.Pod {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case p := <-ch:
			if p.Status.Phase == phase {
				return p
			}
		case <-timeout:
			t.Fatalf("no pod %s in a minute", phase)
		}
	}
}

func newProvider(t *testing.T) (*Provider, pods) {
	if os.Geteuid() != 0 {
		t.Skip("pods run in mount namespaces: needs root")
	}
	p := New(nodeutil.ProviderConfig{}, nil, map[string]string{"tool:1": "/bin/sh"}, t.TempDir(), log.New(io.Discard, "", 0))
	ch := make(pods, 100)
	p.NotifyPods(context.Background(), func(pod *corev1.Pod) { ch <- pod })
	return p, ch
}

func pod(script string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "u1"},
		Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Volumes:       []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
			Containers: []corev1.Container{{
				Name: "c", Image: "tool:1", Command: []string{"/bin/sh", "-c", script},
				Env:          []corev1.EnvVar{{Name: "WHO", Value: "w"}},
				VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
			}},
		},
	}
}

// TestContainerRunsInItsRoot: the container's command sees its volume at
// its mount path and the image's binary at /usr/local/bin, and its exit
// code is the pod's container status.
func TestContainerRunsInItsRoot(t *testing.T) {
	p, ch := newProvider(t)
	spec := pod(`ls /usr/local/bin/tool > /data/out && echo "$WHO $HOSTNAME" >> /data/out && exit 3`)
	if err := p.CreatePod(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	got := ch.await(t, corev1.PodFailed)
	term := got.Status.ContainerStatuses[0].State.Terminated
	if term == nil || term.ExitCode != 3 || term.Reason != "Error" {
		t.Fatalf("container state %+v, want terminated with exit code 3", got.Status.ContainerStatuses[0].State)
	}
	out, err := os.ReadFile(filepath.Join(p.state, "pods", "ns_p_u1", "volumes", "data", "out"))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "/usr/local/bin/tool\nw p\n" {
		t.Errorf("the container wrote %q", out)
	}
}

// TestDeletedPodIsStopped: deleting a running pod sends its process
// SIGTERM (exit 143), and the pod ends Failed.
func TestDeletedPodIsStopped(t *testing.T) {
	p, ch := newProvider(t)
	spec := pod(`trap 'exit 143' TERM; while :; do sleep 0.1; done`)
	if err := p.CreatePod(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	ch.await(t, corev1.PodRunning)
	grace := int64(10)
	spec.DeletionGracePeriodSeconds = &grace
	if err := p.DeletePod(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	got := ch.await(t, corev1.PodFailed)
	if term := got.Status.ContainerStatuses[0].State.Terminated; term == nil || term.ExitCode != 143 {
		t.Fatalf("container state %+v, want terminated by SIGTERM (143)", got.Status.ContainerStatuses[0].State)
	}
}
