package process

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	authv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/kubernetes/pkg/fieldpath"
)

// volumes makes a host directory for each of the pod's volumes, as a
// kubelet's volume plugins would: config maps, secrets, the downward API and
// projected sources as files, emptyDir as an empty directory, a persistent
// volume claim as the directory of the volume it is bound to (hostPath or
// local), hostPath as itself. It returns the directory of each volume.
func (p *Provider) volumes(ctx context.Context, pod *corev1.Pod, dir string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range pod.Spec.Volumes {
		d := filepath.Join(dir, "volumes", v.Name)
		var err error
		switch {
		case v.PersistentVolumeClaim != nil:
			d, err = p.claimDir(ctx, pod.Namespace, v.PersistentVolumeClaim.ClaimName)
		case v.HostPath != nil:
			d = v.HostPath.Path
			err = os.MkdirAll(d, 0o755)
		case v.ConfigMap != nil:
			err = p.configMapFiles(d, pod.Namespace, v.ConfigMap.Name, v.ConfigMap.Items, v.ConfigMap.Optional)
		case v.Secret != nil:
			err = p.secretFiles(d, pod.Namespace, v.Secret.SecretName, v.Secret.Items, v.Secret.Optional)
		case v.DownwardAPI != nil:
			err = downwardFiles(d, pod, v.DownwardAPI.Items)
		case v.Projected != nil:
			err = p.projectedFiles(ctx, d, pod, v.Projected.Sources)
		case v.EmptyDir != nil:
			err = os.MkdirAll(d, 0o777)
		default:
			err = fmt.Errorf("this kubelet runs processes and has no plugin for this kind of volume")
		}
		if err != nil {
			return nil, fmt.Errorf("volume %q: %w", v.Name, err)
		}
		out[v.Name] = d
	}
	return out, nil
}

// ClaimDir is the host directory behind a bound claim: its volume's
// hostPath or local path.
func ClaimDir(ctx context.Context, c kubernetes.Interface, ns, claim string) (string, error) {
	pvc, err := c.CoreV1().PersistentVolumeClaims(ns).Get(ctx, claim, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	if pvc.Spec.VolumeName == "" || pvc.Status.Phase != corev1.ClaimBound {
		return "", fmt.Errorf("claim %s/%s is not bound (%s)", ns, claim, pvc.Status.Phase)
	}
	pv, err := c.CoreV1().PersistentVolumes().Get(ctx, pvc.Spec.VolumeName, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	switch {
	case pv.Spec.HostPath != nil:
		return pv.Spec.HostPath.Path, nil
	case pv.Spec.Local != nil:
		return pv.Spec.Local.Path, nil
	}
	return "", fmt.Errorf("volume %s of claim %s/%s is neither hostPath nor local", pv.Name, ns, claim)
}

func (p *Provider) claimDir(ctx context.Context, ns, claim string) (string, error) {
	d, err := ClaimDir(ctx, p.client, ns, claim)
	if err != nil {
		return "", err
	}
	return d, os.MkdirAll(d, 0o777)
}

func (p *Provider) configMapFiles(dir, ns, name string, items []corev1.KeyToPath, optional *bool) error {
	cm, err := p.cfg.ConfigMaps.ConfigMaps(ns).Get(name)
	if err != nil {
		if optional != nil && *optional {
			return os.MkdirAll(dir, 0o755)
		}
		return err
	}
	data := map[string][]byte{}
	for k, v := range cm.Data {
		data[k] = []byte(v)
	}
	for k, v := range cm.BinaryData {
		data[k] = v
	}
	return writeKeys(dir, data, items)
}

func (p *Provider) secretFiles(dir, ns, name string, items []corev1.KeyToPath, optional *bool) error {
	s, err := p.cfg.Secrets.Secrets(ns).Get(name)
	if err != nil {
		if optional != nil && *optional {
			return os.MkdirAll(dir, 0o755)
		}
		return err
	}
	return writeKeys(dir, s.Data, items)
}

// writeKeys writes each key as a file, or only the items named, at their paths.
func writeKeys(dir string, data map[string][]byte, items []corev1.KeyToPath) error {
	files := map[string][]byte{}
	if len(items) == 0 {
		files = data
	}
	for _, it := range items {
		v, ok := data[it.Key]
		if !ok {
			return fmt.Errorf("no key %q", it.Key)
		}
		files[it.Path] = v
	}
	return writeFiles(dir, files)
}

func writeFiles(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for path, v := range files {
		f := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(f, v, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func downwardFiles(dir string, pod *corev1.Pod, items []corev1.DownwardAPIVolumeFile) error {
	files := map[string][]byte{}
	for _, it := range items {
		if it.FieldRef == nil {
			continue // resourceFieldRef: a process has no limits to report
		}
		v, err := fieldpath.ExtractFieldPathAsString(pod, it.FieldRef.FieldPath)
		if err != nil {
			return err
		}
		files[it.Path] = []byte(v)
	}
	return writeFiles(dir, files)
}

// projectedFiles writes every source of a projected volume into one
// directory; the service account token is one the API server issues for
// the pod, as the kubelet asks for it.
func (p *Provider) projectedFiles(ctx context.Context, dir string, pod *corev1.Pod, srcs []corev1.VolumeProjection) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range srcs {
		var err error
		switch {
		case s.ConfigMap != nil:
			err = p.configMapFiles(dir, pod.Namespace, s.ConfigMap.Name, s.ConfigMap.Items, s.ConfigMap.Optional)
		case s.Secret != nil:
			err = p.secretFiles(dir, pod.Namespace, s.Secret.Name, s.Secret.Items, s.Secret.Optional)
		case s.DownwardAPI != nil:
			err = downwardFiles(dir, pod, s.DownwardAPI.Items)
		case s.ServiceAccountToken != nil:
			err = p.token(ctx, dir, pod, s.ServiceAccountToken)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *Provider) token(ctx context.Context, dir string, pod *corev1.Pod, s *corev1.ServiceAccountTokenProjection) error {
	req := &authv1.TokenRequest{Spec: authv1.TokenRequestSpec{
		ExpirationSeconds: s.ExpirationSeconds,
		BoundObjectRef:    &authv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: pod.Name, UID: pod.UID},
	}}
	if s.Audience != "" {
		req.Spec.Audiences = []string{s.Audience}
	}
	tr, err := p.client.CoreV1().ServiceAccounts(pod.Namespace).CreateToken(ctx, pod.Spec.ServiceAccountName, req, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("service account token: %w", err)
	}
	return writeFiles(dir, map[string][]byte{s.Path: []byte(tr.Status.Token)})
}
