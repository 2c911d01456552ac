// Package builtin holds the workloads that ship inside the binary, as the
// same YAML a user would write, so each doubles as an example to copy.
package builtin

import (
	"embed"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Get returns the YAML of the built-in workload name.
func Get(name string) ([]byte, bool) {
	data, err := files.ReadFile(name + ".yaml")
	return data, err == nil
}

// Names lists the built-in workloads.
func Names() []string {
	entries, _ := files.ReadDir(".")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}
