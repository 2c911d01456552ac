// Command processkubelet is a node whose kubelet runs each pod's containers
// as processes on this machine (see package process), for the end-to-end
// test of deploy/kubernetes against Kubernetes's own control plane.
//
//	processkubelet --kubeconfig K --node-name N --state DIR --image mongoload:latest=/path/to/mongoload
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	vklog "github.com/virtual-kubelet/virtual-kubelet/log"
	vkslog "github.com/virtual-kubelet/virtual-kubelet/log/slog"
	"github.com/virtual-kubelet/virtual-kubelet/node"
	"github.com/virtual-kubelet/virtual-kubelet/node/nodeutil"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/mongoload/mongoload/deploy/kubernetes/e2e/process"
)

type images map[string]string

func (m images) String() string { return fmt.Sprint(map[string]string(m)) }
func (m images) Set(v string) error {
	name, path, ok := strings.Cut(v, "=")
	if !ok || name == "" || path == "" {
		return fmt.Errorf("want IMAGE=PATH, got %q", v)
	}
	m[name] = path
	return nil
}

func main() {
	if len(os.Args) > 2 && os.Args[1] == process.SandboxArg {
		err := process.RunSandbox(os.Args[2])
		fmt.Fprintln(os.Stderr, "processkubelet: container start:", err)
		os.Exit(128)
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "processkubelet:", err)
		os.Exit(1)
	}
}

func run() error {
	imgs := images{}
	kubeconfig := flag.String("kubeconfig", "", "the API server's kubeconfig")
	name := flag.String("node-name", "", "this node's name")
	state := flag.String("state", "", "directory for the pods' volumes, roots and output")
	cpu := flag.String("cpu", "4", "the node's allocatable CPU")
	memory := flag.String("memory", "16Gi", "the node's allocatable memory")
	flag.Var(imgs, "image", "IMAGE=PATH: the image stands for this binary, at /usr/local/bin/<image name> (repeatable)")
	flag.Parse()
	if *kubeconfig == "" || *name == "" || *state == "" {
		return errors.New("--kubeconfig, --node-name and --state are required")
	}
	capacity := corev1.ResourceList{}
	for k, v := range map[corev1.ResourceName]string{corev1.ResourceCPU: *cpu, corev1.ResourceMemory: *memory, corev1.ResourcePods: "110"} {
		q, err := resource.ParseQuantity(v)
		if err != nil {
			return fmt.Errorf("--%s %q: %w", k, v, err)
		}
		capacity[k] = q
	}
	vklog.L = vkslog.FromSlog(slog.New(slog.NewTextHandler(os.Stderr, nil)))
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		return err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	var p *process.Provider
	n, err := nodeutil.NewNode(*name, func(pc nodeutil.ProviderConfig) (nodeutil.Provider, node.NodeProvider, error) {
		describe(pc.Node, capacity)
		p = process.New(pc, client, imgs, *state, log.New(os.Stderr, *name+" ", log.LstdFlags|log.Lmicroseconds))
		return p, nil, nil
	}, nodeutil.WithClient(client))
	if err != nil {
		return err
	}
	go func() {
		if err := n.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
			log.Printf("node %s: %v", *name, err)
			stop()
		}
	}()
	if err := n.WaitReady(ctx, time.Minute); err != nil {
		return fmt.Errorf("node %s not ready: %w", *name, err)
	}
	log.Printf("node %s ready", *name)
	<-ctx.Done()
	p.StopAll() // the node goes away: so do its processes
	return nil
}

// describe fills the node's status as a kubelet reports it.
func describe(n *corev1.Node, capacity corev1.ResourceList) {
	n.Status.Capacity, n.Status.Allocatable = capacity, capacity
	n.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "127.0.0.1"}, {Type: corev1.NodeHostName, Address: n.Name}}
	n.Status.NodeInfo = corev1.NodeSystemInfo{OperatingSystem: "linux", Architecture: runtime.GOARCH, KubeletVersion: "v1.37.2-process", ContainerRuntimeVersion: "process://"}
	n.Labels["kubernetes.io/os"], n.Labels["kubernetes.io/arch"] = "linux", runtime.GOARCH
}
