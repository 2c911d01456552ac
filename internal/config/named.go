package config

import (
	"fmt"
	"os"
	"strings"

	"github.com/mongoload/mongoload/internal/builtin"
)

// LoadNamed reads the workload a command names: a file, or a built-in
// workload by name ("" is the built-in default). A name that looks like a
// path (a slash, a dot) is a file even when it does not exist.
func LoadNamed(ref string) (*Config, error) {
	if ref == "" {
		ref = "default"
	}
	if _, err := os.Stat(ref); err == nil || strings.ContainsAny(ref, `/\.`) {
		return Load(ref)
	}
	data, ok := builtin.Get(ref)
	if !ok {
		return nil, &Error{Kind: Unreadable, File: ref,
			Msg: fmt.Sprintf("no workload file or built-in workload of that name (built-ins: %s)%s", strings.Join(builtin.Names(), ", "), DidYouMean(ref, builtin.Names()))}
	}
	return Parse(data, "builtin:"+ref)
}
