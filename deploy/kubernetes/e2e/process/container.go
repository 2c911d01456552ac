package process

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/third_party/forked/golang/expansion"
)

// imagePath is the PATH of the image's configuration (busybox's, the base
// of mongoload's Dockerfile); the image's binary sits in /usr/local/bin.
const imagePath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// runContainer runs one container to its end and returns its exit code, as
// a runtime reports it (128+n for a process killed by signal n). A container
// whose image this node does not have stays Waiting, as it would on a node
// that cannot pull it, until the pod is deleted.
func (p *Provider) runContainer(r *podRun, c corev1.Container, vols map[string]string, init bool, i int) int {
	status := func(pod *corev1.Pod) *corev1.ContainerStatus {
		if init {
			return &pod.Status.InitContainerStatuses[i]
		}
		return &pod.Status.ContainerStatuses[i]
	}
	cmd, err := p.command(r, c, vols)
	if err == nil {
		err = p.start(r, c.Name, cmd)
	}
	if err != nil {
		p.logf("pod %s/%s container %s: %v", r.pod.Namespace, r.pod.Name, c.Name, err)
		p.update(r, func(pod *corev1.Pod) {
			status(pod).State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reasonOf(err), Message: err.Error()}}
		})
		<-r.stopped // nothing more happens to it but its deletion
		return 128
	}
	started := metav1.Now()
	id := fmt.Sprintf("process://%d", cmd.Process.Pid)
	p.update(r, func(pod *corev1.Pod) {
		s := status(pod)
		s.ContainerID, s.Started, s.Ready = id, ptr(true), !init
		s.State = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}}
		if !init && allRunning(pod.Status.ContainerStatuses) {
			pod.Status.Phase = corev1.PodRunning
			setCondition(&pod.Status, corev1.ContainersReady, true, "")
			setCondition(&pod.Status, corev1.PodReady, true, "")
		}
	})
	code := exitCode(cmd.Wait())
	_ = cmd.Stdout.(*os.File).Close()
	r.mu.Lock()
	delete(r.procs, c.Name)
	r.mu.Unlock()
	reason := "Completed"
	if code != 0 {
		reason = "Error"
	}
	p.update(r, func(pod *corev1.Pod) {
		s := status(pod)
		s.Ready, s.Started = false, ptr(false)
		s.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
			ExitCode: int32(code), Reason: reason, StartedAt: started, FinishedAt: metav1.Now(), ContainerID: id}}
	})
	p.logf("pod %s/%s container %s exited %d", r.pod.Namespace, r.pod.Name, c.Name, code)
	return code
}

// start starts the process unless the pod is being stopped, and records
// its process group so that stop reaches it and everything it started.
func (p *Provider) start(r *podRun, name string, cmd *exec.Cmd) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopping {
		return errors.New("the pod is being deleted")
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r.procs[name] = cmd.Process.Pid
	return nil
}

var errNoImage = errors.New("image not on this node")

func reasonOf(err error) string {
	if errors.Is(err, errNoImage) {
		return "ErrImageNeverPull"
	}
	return "CreateContainerError"
}

// command builds the process: this binary in sandbox mode, in a mount
// namespace of its own, which builds the container's root and execs the
// container's command there, its output in the pod's directory.
func (p *Provider) command(r *podRun, c corev1.Container, vols map[string]string) (*exec.Cmd, error) {
	bin, ok := p.images[c.Image]
	if !ok {
		return nil, fmt.Errorf("%w: %s (this kubelet maps images to binaries: --image %s=PATH)", errNoImage, c.Image, c.Image)
	}
	name := imageName(c.Image)
	env := map[string]string{"PATH": imagePath, "HOSTNAME": r.pod.Name}
	for _, e := range c.Env { // resolved by the pod controller: config maps, secrets, the downward API
		env[e.Name] = e.Value
	}
	expand := expansion.MappingFuncFor(env)
	var argv []string
	if len(c.Command) == 0 {
		argv = []string{name} // the image's entrypoint
	}
	for _, a := range append(append([]string{}, c.Command...), c.Args...) {
		argv = append(argv, expansion.Expand(a, expand))
	}
	root := filepath.Join(r.dir, "rootfs", c.Name)
	tmp := filepath.Join(r.dir, "tmp")
	for _, d := range []string{root, tmp} {
		if err := os.MkdirAll(d, 0o1777); err != nil {
			return nil, err
		}
	}
	s := sandbox{Root: root, WorkDir: c.WorkingDir, Argv: argv, Binds: []bind{
		{Host: bin, Path: "/usr/local/bin/" + name, ReadOnly: true},
		{Host: tmp, Path: "/tmp"},
	}}
	for _, m := range c.VolumeMounts {
		host, ok := vols[m.Name]
		if !ok {
			return nil, fmt.Errorf("volumeMount %q names no volume of the pod", m.Name)
		}
		s.Binds = append(s.Binds, bind{Host: filepath.Join(host, m.SubPath), Path: m.MountPath, ReadOnly: m.ReadOnly})
	}
	spec, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	logf, err := os.OpenFile(filepath.Join(r.dir, c.Name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, SandboxArg, string(spec))
	cmd.Stdout, cmd.Stderr = logf, logf
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS, Setpgid: true}
	return cmd, nil
}

// imageName is the image's repository's last element: mongoload:latest
// holds /usr/local/bin/mongoload.
func imageName(image string) string {
	name := path.Base(image)
	if i := strings.IndexAny(name, ":@"); i > 0 {
		name = name[:i]
	}
	return name
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if err == nil {
		return 0
	}
	if !errors.As(err, &ee) {
		return 128
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}

func allRunning(cs []corev1.ContainerStatus) bool {
	for _, s := range cs {
		if s.State.Running == nil {
			return false
		}
	}
	return true
}

func ptr[T any](v T) *T { return &v }
