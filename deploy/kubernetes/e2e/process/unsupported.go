package process

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"

	dto "github.com/prometheus/client_model/go"
	"github.com/virtual-kubelet/virtual-kubelet/errdefs"
	"github.com/virtual-kubelet/virtual-kubelet/node/api"
	statsv1alpha1 "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
)

// A process has no terminal to attach to, no port to forward and no cgroup
// to measure: those kubelet calls are refused. Each container's output is
// in its pod's directory (<state>/pods/<namespace>_<pod>_<uid>/<container>.log).
var errUnsupported = errors.New("not supported by a kubelet that runs processes")

// GetContainerLogs returns the container's output.
func (p *Provider) GetContainerLogs(_ context.Context, ns, pod, container string, _ api.ContainerLogOpts) (io.ReadCloser, error) {
	p.mu.Lock()
	r, ok := p.pods[key(ns, pod)]
	p.mu.Unlock()
	if !ok {
		return nil, errdefs.NotFoundf("pod %s/%s", ns, pod)
	}
	return os.Open(filepath.Join(r.dir, container+".log"))
}

// RunInContainer is refused.
func (p *Provider) RunInContainer(context.Context, string, string, string, []string, api.AttachIO) error {
	return errUnsupported
}

// AttachToContainer is refused.
func (p *Provider) AttachToContainer(context.Context, string, string, string, api.AttachIO) error {
	return errUnsupported
}

// GetStatsSummary is refused.
func (p *Provider) GetStatsSummary(context.Context) (*statsv1alpha1.Summary, error) {
	return nil, errUnsupported
}

// GetMetricsResource is refused.
func (p *Provider) GetMetricsResource(context.Context) ([]*dto.MetricFamily, error) {
	return nil, errUnsupported
}

// PortForward is refused.
func (p *Provider) PortForward(context.Context, string, string, int32, io.ReadWriteCloser) error {
	return errUnsupported
}
