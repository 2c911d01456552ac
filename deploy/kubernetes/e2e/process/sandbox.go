package process

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// SandboxArg is the first argument that makes the kubelet binary act as a
// container's first process instead (see RunSandbox).
const SandboxArg = "sandbox"

// sandbox is what a container's process sees: a root directory holding the
// host's userland (the stand-in for an image's base layer, like the busybox
// of mongoload's Dockerfile), the image's binary, and the pod's volumes at
// their mount paths. It travels to the child as JSON in its arguments.
type sandbox struct {
	Root    string   `json:"root"`
	Binds   []bind   `json:"binds"`
	WorkDir string   `json:"workDir"`
	Argv    []string `json:"argv"`
}

type bind struct {
	Host, Path string
	ReadOnly   bool
}

// hostSystem is what of the host's root every container sees (read-only but
// /dev, /proc, /sys, which are the host's own).
var hostSystem = []string{"bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "dev", "proc", "sys"}

// RunSandbox runs in the child, already in a mount namespace of its own
// (the parent asks for one), so none of its mounts is seen outside and all
// go away with it: it builds the root, enters it and execs the container's
// command. It returns only on failure, which the caller reports as a start
// error (exit 128, as a runtime's).
func RunSandbox(spec string) error {
	var s sandbox
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		return fmt.Errorf("sandbox spec: %w", err)
	}
	if err := buildRoot(&s); err != nil {
		return err
	}
	if err := syscall.Chroot(s.Root); err != nil {
		return fmt.Errorf("chroot %s: %w", s.Root, err)
	}
	if err := os.Chdir(cmpOr(s.WorkDir, "/")); err != nil {
		return fmt.Errorf("workingDir %s: %w", s.WorkDir, err)
	}
	path, err := lookPath(s.Argv[0], os.Getenv("PATH"))
	if err != nil {
		return err
	}
	return syscall.Exec(path, s.Argv, os.Environ())
}

// buildRoot lays out the root: the host's system directories (symbolic
// links stay links), /usr without /usr/local, then the image's and the
// pod's binds.
func buildRoot(s *sandbox) error {
	var binds []bind
	for _, d := range hostSystem {
		binds = append(binds, bind{Host: "/" + d, Path: "/" + d, ReadOnly: d != "dev" && d != "proc" && d != "sys"})
	}
	entries, err := os.ReadDir("/usr")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != "local" {
			binds = append(binds, bind{Host: "/usr/" + e.Name(), Path: "/usr/" + e.Name(), ReadOnly: true})
		}
	}
	for _, b := range append(binds, s.Binds...) {
		if err := mount(s.Root, b); err != nil {
			return err
		}
	}
	return nil
}

func mount(root string, b bind) error {
	target := filepath.Join(root, b.Path)
	fi, err := os.Lstat(b.Host)
	if os.IsNotExist(err) {
		return nil // a host without /lib32, say
	}
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		link, err := os.Readlink(b.Host)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.Symlink(link, target); err != nil && !os.IsExist(err) {
			return err
		}
		return nil
	}
	if fi.IsDir() {
		err = os.MkdirAll(target, 0o755)
	} else {
		err = touch(target)
	}
	if err != nil {
		return err
	}
	if err := syscall.Mount(b.Host, target, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s on %s: %w", b.Host, b.Path, err)
	}
	if b.ReadOnly {
		flags := uintptr(syscall.MS_BIND | syscall.MS_REMOUNT | syscall.MS_RDONLY | syscall.MS_REC)
		if err := syscall.Mount("", target, "", flags, ""); err != nil {
			return fmt.Errorf("read-only %s: %w", b.Path, err)
		}
	}
	return nil
}

func touch(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	return f.Close()
}

// lookPath finds a command in PATH inside the root, as a runtime does for a
// command that names no directory.
func lookPath(name, path string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("executable %q not found in $PATH (%s)", name, path)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
