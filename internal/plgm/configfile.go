package plgm

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mongoload/mongoload/internal/config"
)

// readConfigFile applies plgm's config.yaml.
func (c *converter) readConfigFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return &config.Error{Kind: config.Unreadable, File: path, Msg: fmt.Sprintf("cannot read the plgm configuration: %v", unwrap(err))}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return &config.Error{Kind: config.Syntax, File: path, Msg: "malformed YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	flat := map[string]*yaml.Node{}
	if len(root.Content) > 0 {
		flatten(root.Content[0], "", flat)
	}
	keys := make([]string, 0, len(flat))
	for k := range flat {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var es config.Errors
	for _, k := range keys {
		n := flat[k]
		if strings.HasPrefix(k, "custom_params.") {
			c.set.options[strings.TrimPrefix(k, "custom_params.")] = n.Value
			continue
		}
		if kn := knobByYAML(k); kn != nil {
			if err := kn.set(c.set, n.Value); err != nil {
				es = append(es, &config.Error{Kind: config.Invalid, File: path, Line: n.Line, Field: k, Msg: err.Error()})
			}
			continue
		}
		if u := unsupportedByYAML(k); u >= 0 {
			if unsupported[u].on(n.Value) {
				c.warn(path, n.Line, k, "%s", unsupported[u].msg)
			}
			continue
		}
		if isInert(k) {
			continue
		}
		c.warn(path, n.Line, k, "not a plgm setting that mongoload knows; ignored")
	}
	return es.Err()
}

// flatten maps "a.b" to the scalar node of a nested mapping.
func flatten(n *yaml.Node, prefix string, out map[string]*yaml.Node) {
	if n.Kind != yaml.MappingNode {
		out[prefix] = n
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if prefix != "" {
			k = prefix + "." + k
		}
		flatten(n.Content[i+1], k, out)
	}
}

func knobByYAML(k string) *knob {
	for i := range knobs {
		if knobs[i].yaml == k {
			return &knobs[i]
		}
	}
	return nil
}

func unsupportedByYAML(k string) int {
	for i, u := range unsupported {
		if u.yaml == k {
			return i
		}
	}
	return -1
}

func isInert(k string) bool {
	for _, p := range inert {
		if k == p || strings.HasPrefix(k, p+".") || (strings.HasSuffix(p, "_") && strings.HasPrefix(k, p)) {
			return true
		}
	}
	return false
}

// applyEnv applies the PLGM_* environment variables, which win over
// config.yaml. A percentage set this way is pinned: the others share what
// is left of 100%, as plgm normalizes them.
func (c *converter) applyEnv(env func(string) (string, bool)) error {
	var es config.Errors
	for _, kn := range knobs {
		if kn.env == "" {
			continue
		}
		v, ok := env(kn.env)
		if !ok || (v == "" && kn.env != "PLGM_REPLICASET_NAME") {
			continue
		}
		if err := kn.set(c.set, v); err != nil {
			es = append(es, &config.Error{Kind: config.Invalid, Field: kn.env, Msg: err.Error()})
			continue
		}
		if strings.HasSuffix(kn.yaml, "_percent") {
			c.set.pinned[strings.TrimSuffix(kn.yaml, "_percent")] = true
		}
	}
	for _, u := range unsupported {
		if v, ok := env(u.env); ok && u.on(v) {
			c.warn("", 0, u.env, "%s", u.msg)
		}
	}
	return es.Err()
}
