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
	// An existing file keeps its mode through O_TRUNC: made private
	// before the first byte is written, or refused.
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s cannot be made readable by its owner only (mode 0600), as a trace must be: %w", path, err)
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
