package config

import "path/filepath"

// StateDir is where mongoload keeps what must outlive a process (the
// markers of profilers capture changed): $XDG_STATE_HOME/mongoload, or
// ~/.local/state/mongoload; "" when neither is known.
func StateDir(getenv func(string) (string, bool)) string {
	if d, ok := getenv("XDG_STATE_HOME"); ok && d != "" {
		return filepath.Join(d, "mongoload")
	}
	if h, ok := getenv("HOME"); ok && h != "" {
		return filepath.Join(h, ".local", "state", "mongoload")
	}
	return ""
}
