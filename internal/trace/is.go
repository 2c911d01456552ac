package trace

import (
	"io"
	"os"
)

// IsTrace says whether path starts with a trace's magic line: a trace is
// told by its content, whatever its name.
func IsTrace(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	m := make([]byte, len(magic))
	_, err = io.ReadFull(f, m)
	return err == nil && string(m) == magic
}
