package process

import (
	"context"
	"sync"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// podRun is one pod on this node: its processes and whether it is being
// stopped. The pod itself (and its status) is guarded by Provider.mu.
type podRun struct {
	pod *corev1.Pod
	dir string

	mu       sync.Mutex
	procs    map[string]int // container -> process group
	stopping bool
	stopped  chan struct{} // closed when stopping starts
	done     bool
}

func newPodRun(pod *corev1.Pod, dir string) *podRun {
	r := &podRun{pod: pod.DeepCopy(), dir: dir, procs: map[string]int{}, stopped: make(chan struct{})}
	now := metav1.Now()
	st := &r.pod.Status
	st.Phase, st.StartTime = corev1.PodPending, &now
	st.HostIP, st.PodIP = "127.0.0.1", "127.0.0.1"
	st.HostIPs, st.PodIPs = []corev1.HostIP{{IP: "127.0.0.1"}}, []corev1.PodIP{{IP: "127.0.0.1"}}
	setCondition(st, corev1.PodInitialized, len(pod.Spec.InitContainers) == 0, "")
	setCondition(st, corev1.ContainersReady, false, "")
	setCondition(st, corev1.PodReady, false, "")
	st.InitContainerStatuses = waiting(pod.Spec.InitContainers, "PodInitializing")
	st.ContainerStatuses = waiting(pod.Spec.Containers, "ContainerCreating")
	return r
}

func waiting(cs []corev1.Container, reason string) []corev1.ContainerStatus {
	out := make([]corev1.ContainerStatus, len(cs))
	for i, c := range cs {
		out[i] = corev1.ContainerStatus{Name: c.Name, Image: c.Image, ImageID: c.Image,
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason}}}
	}
	return out
}

func setCondition(st *corev1.PodStatus, t corev1.PodConditionType, ok bool, reason string) {
	s := corev1.ConditionFalse
	if ok {
		s = corev1.ConditionTrue
	}
	for i := range st.Conditions {
		if st.Conditions[i].Type == t {
			if st.Conditions[i].Status != s {
				st.Conditions[i].Status, st.Conditions[i].LastTransitionTime = s, metav1.Now()
			}
			st.Conditions[i].Reason = reason
			return
		}
	}
	st.Conditions = append(st.Conditions, corev1.PodCondition{Type: t, Status: s, Reason: reason, LastTransitionTime: metav1.Now()})
}

// ended reports a pod whose processes are all gone for good.
func (r *podRun) ended() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done
}

func (r *podRun) isStopping() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopping
}

// stop sends SIGTERM to every container's process group and SIGKILL to
// those still there after grace seconds (at once for 0).
func (r *podRun) stop(grace int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.stopping {
		r.stopping = true
		close(r.stopped)
	}
	sig := syscall.SIGTERM
	if grace <= 0 {
		sig = syscall.SIGKILL
	}
	for _, pgid := range r.procs {
		_ = syscall.Kill(-pgid, sig)
	}
	if grace > 0 {
		time.AfterFunc(time.Duration(grace)*time.Second, func() { r.stop(0) })
	}
}

// run takes the pod from Pending to its end: volumes, init containers one
// after the other, then every container at once. restartPolicy Never is
// what it implements (Jobs' pods): a container that fails fails the pod.
func (p *Provider) run(ctx context.Context, r *podRun) {
	defer func() {
		r.mu.Lock()
		r.done = true
		r.mu.Unlock()
	}()
	vols, ok := p.prepare(ctx, r)
	if !ok {
		p.finish(r, false)
		return
	}
	for i, c := range r.pod.Spec.InitContainers {
		if r.isStopping() || p.runContainer(r, c, vols, true, i) != 0 {
			p.finish(r, false)
			return
		}
	}
	p.update(r, func(pod *corev1.Pod) { setCondition(&pod.Status, corev1.PodInitialized, true, "") })
	codes := make([]int, len(r.pod.Spec.Containers))
	var wg sync.WaitGroup
	for i, c := range r.pod.Spec.Containers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = p.runContainer(r, c, vols, false, i)
		}()
	}
	wg.Wait()
	ok = true
	for _, c := range codes {
		ok = ok && c == 0
	}
	p.finish(r, ok)
}

// prepare makes the pod's volumes, trying again while something they
// need (a config map, a claim) is missing, as a kubelet does.
func (p *Provider) prepare(ctx context.Context, r *podRun) (map[string]string, bool) {
	for !r.isStopping() {
		vols, err := p.volumes(ctx, p.snapshot(r), r.dir)
		if err == nil {
			return vols, true
		}
		p.logf("pod %s/%s: %v", r.pod.Namespace, r.pod.Name, err)
		p.update(r, func(pod *corev1.Pod) {
			for i := range pod.Status.ContainerStatuses {
				pod.Status.ContainerStatuses[i].State.Waiting = &corev1.ContainerStateWaiting{Reason: "CreateContainerConfigError", Message: err.Error()}
			}
		})
		time.Sleep(2 * time.Second)
	}
	return nil, false
}

// finish sets the pod's terminal phase: Succeeded when every container
// exited 0, else Failed (a deleted pod that had not succeeded is Failed,
// as the kubelet reports it).
func (p *Provider) finish(r *podRun, ok bool) {
	p.update(r, func(pod *corev1.Pod) {
		st := &pod.Status
		st.Phase = corev1.PodFailed
		if ok {
			st.Phase = corev1.PodSucceeded
		}
		for _, cs := range [][]corev1.ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses} {
			for i := range cs {
				if cs[i].State.Terminated == nil {
					cs[i].State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "ContainerStatusUnknown", Message: "the pod ended before this container ran"}}
				}
				cs[i].Ready = false
			}
		}
		setCondition(st, corev1.PodReady, false, "PodCompleted")
		setCondition(st, corev1.ContainersReady, false, "PodCompleted")
	})
}
