package trace

import (
	"fmt"
	"os"
)

// Create starts a trace in a new file at path, mode 0600 (a trace holds
// the application's data, every literal), truncating what was there.
// Close finishes it; Abort removes it.
func Create(path string, h Header) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	w, err := NewWriter(f, h)
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w.path = path
	return w, nil
}

// Abort closes a trace made by Create and removes its file: a capture
// that failed leaves no trace behind.
func (t *Writer) Abort() {
	if t.c != nil {
		t.c.Close()
	}
	if t.path != "" {
		os.Remove(t.path)
	}
}

// Path is the file Create made ("" for NewWriter's).
func (t *Writer) Path() string { return t.path }
