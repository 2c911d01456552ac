// Package process is a virtual-kubelet provider that runs each pod's
// containers as processes on this machine: Kubernetes's own control plane
// decides what runs where and when; this kubelet starts the container's
// command with its environment resolved as a kubelet would, mounts its
// volumes as host directories, and reports phase, exit codes and deletion.
package process

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sync"

	"github.com/virtual-kubelet/virtual-kubelet/errdefs"
	"github.com/virtual-kubelet/virtual-kubelet/node/nodeutil"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
)

// Provider runs the pods the scheduler binds to one node.
type Provider struct {
	cfg    nodeutil.ProviderConfig
	client kubernetes.Interface
	images map[string]string // image -> the binary it holds
	state  string            // this node's directory: one per pod below it
	logger *log.Logger

	mu     sync.Mutex
	pods   map[string]*podRun // by namespace/name
	notify func(*corev1.Pod)
}

// New returns a provider whose pods live under state. images maps an
// image reference to the binary it stands for.
func New(cfg nodeutil.ProviderConfig, client kubernetes.Interface, images map[string]string, state string, logger *log.Logger) *Provider {
	return &Provider{cfg: cfg, client: client, images: images, state: state, logger: logger,
		pods: map[string]*podRun{}, notify: func(*corev1.Pod) {}}
}

func key(ns, name string) string { return ns + "/" + name }

// NotifyPods registers the callback through which every status change
// reaches the API server.
func (p *Provider) NotifyPods(_ context.Context, f func(*corev1.Pod)) {
	p.mu.Lock()
	p.notify = f
	p.mu.Unlock()
}

// CreatePod starts the pod in the background and reports it Pending.
func (p *Provider) CreatePod(ctx context.Context, pod *corev1.Pod) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := key(pod.Namespace, pod.Name)
	if old, ok := p.pods[k]; ok && old.pod.UID == pod.UID {
		return nil
	}
	dir := filepath.Join(p.state, "pods", pod.Namespace+"_"+pod.Name+"_"+string(pod.UID))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	r := newPodRun(pod, dir)
	p.pods[k] = r
	go func() {
		p.update(r, func(*corev1.Pod) {})
		p.run(context.WithoutCancel(ctx), r)
	}()
	return nil
}

// UpdatePod keeps the pod's new metadata; a running process has nothing
// to change.
func (p *Provider) UpdatePod(_ context.Context, pod *corev1.Pod) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.pods[key(pod.Namespace, pod.Name)]
	if !ok {
		return errdefs.NotFoundf("pod %s/%s", pod.Namespace, pod.Name)
	}
	// In place, field by field: the pod's goroutine reads its spec unlocked.
	r.pod.Labels, r.pod.Annotations = pod.Labels, pod.Annotations
	r.pod.DeletionTimestamp, r.pod.DeletionGracePeriodSeconds = pod.DeletionTimestamp, pod.DeletionGracePeriodSeconds
	return nil
}

// DeletePod stops the pod as a kubelet does: SIGTERM to every container's
// processes, SIGKILL after the grace period. The pod turns Failed (unless
// it had already succeeded) once they have exited. A pod that has ended is
// forgotten.
func (p *Provider) DeletePod(_ context.Context, pod *corev1.Pod) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := key(pod.Namespace, pod.Name)
	r, ok := p.pods[k]
	if !ok {
		return errdefs.NotFoundf("pod %s/%s", pod.Namespace, pod.Name)
	}
	if r.ended() {
		delete(p.pods, k)
		_ = os.RemoveAll(filepath.Join(r.dir, "rootfs"))
		return nil
	}
	grace := int64(30)
	if pod.DeletionGracePeriodSeconds != nil {
		grace = *pod.DeletionGracePeriodSeconds
	} else if pod.Spec.TerminationGracePeriodSeconds != nil {
		grace = *pod.Spec.TerminationGracePeriodSeconds
	}
	r.stop(grace)
	return nil
}

// GetPod returns the pod as this node last saw it.
func (p *Provider) GetPod(_ context.Context, ns, name string) (*corev1.Pod, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.pods[key(ns, name)]
	if !ok {
		return nil, errdefs.NotFoundf("pod %s/%s", ns, name)
	}
	return r.pod.DeepCopy(), nil
}

// GetPodStatus returns the pod's status.
func (p *Provider) GetPodStatus(ctx context.Context, ns, name string) (*corev1.PodStatus, error) {
	pod, err := p.GetPod(ctx, ns, name)
	if err != nil {
		return nil, err
	}
	return &pod.Status, nil
}

// GetPods returns every pod this node knows.
func (p *Provider) GetPods(context.Context) ([]*corev1.Pod, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*corev1.Pod, 0, len(p.pods))
	for _, r := range p.pods {
		out = append(out, r.pod.DeepCopy())
	}
	return out, nil
}

// StopAll kills every pod's processes: the node is going away.
func (p *Provider) StopAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range p.pods {
		r.stop(0)
	}
}

// snapshot is a copy of the pod as it is now.
func (p *Provider) snapshot(r *podRun) *corev1.Pod {
	p.mu.Lock()
	defer p.mu.Unlock()
	return r.pod.DeepCopy()
}

// update changes a pod's status under the lock, then sends it to the API
// server (outside the lock: the callback may block).
func (p *Provider) update(r *podRun, f func(*corev1.Pod)) {
	p.mu.Lock()
	f(r.pod)
	pod, notify := r.pod.DeepCopy(), p.notify
	p.mu.Unlock()
	notify(pod)
}

func (p *Provider) logf(format string, args ...any) {
	p.logger.Output(2, fmt.Sprintf(format, args...)) //nolint:errcheck
}
