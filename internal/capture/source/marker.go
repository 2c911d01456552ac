package source

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// A capture with --enable-profiler changes a production setting. Should
// it die before it puts the setting back (SIGKILL, a power cut), the next
// capture would read the changed level as the original and keep it for
// good. So before it changes the profiler, capture writes what it found,
// and what it set, to a marker file outside the process (under
// Options.StateDir, named after the deployment and the database), and
// removes it once the profiler is restored. The next capture of that
// database that finds the marker restores the level it records (with
// --enable-profiler), or says exactly what to run (without).

// marker is what one capture found and set.
type marker struct {
	Database string                `json:"database"`
	Found    mongodb.ProfilerState `json:"found"`
	Set      mongodb.ProfilerState `json:"set"`
	PID      int                   `json:"pid"`
	Since    time.Time             `json:"since"`
}

// markerPath is the marker's file for db of the deployment ("" when
// capture keeps no state: no StateDir).
func (o Options) markerPath(db string) string {
	if o.StateDir == "" {
		return ""
	}
	h := sha256.Sum256([]byte(o.Deployment + "\x00" + db))
	return filepath.Join(o.StateDir, "profiler-"+hex.EncodeToString(h[:8])+".json")
}

// readMarker reads db's marker; nil when there is none.
func (o Options) readMarker(db string) *marker {
	p := o.markerPath(db)
	if p == "" {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var m marker
	if json.Unmarshal(data, &m) != nil || m.Database != db {
		return nil
	}
	return &m
}

// writeMarker records, before the profiler is changed, what to put back.
func (o Options) writeMarker(m marker) error {
	p := o.markerPath(m.Database)
	if p == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("record the profiler's level before changing it: %w", err)
	}
	data, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		return fmt.Errorf("record the profiler's level before changing it: %w", err)
	}
	return nil
}

func (o Options) removeMarker(db string) {
	if p := o.markerPath(db); p != "" {
		_ = os.Remove(p)
	}
}

// same: two profiler states are the same setting.
func same(a, b mongodb.ProfilerState) bool {
	return a.Level == b.Level && a.SlowMS == b.SlowMS && (a.SampleRate == b.SampleRate || a.SampleRate <= 0 || b.SampleRate <= 0)
}

// restoreLine is the mongosh line that puts st back on db.
func restoreLine(db string, st mongodb.ProfilerState) string {
	rate := st.SampleRate
	if rate <= 0 {
		rate = 1
	}
	return fmt.Sprintf("db.getSiblingDB(%q).setProfilingLevel(%d, {slowms: %d, sampleRate: %g})", db, st.Level, st.SlowMS, rate)
}

// leftBehind looks for a marker of db: the profiler a capture changed and
// never restored. It returns the state to restore at the end of this
// capture (found, or the marker's original), and a notice for the user.
func (o Options) leftBehind(db string, found mongodb.ProfilerState) (original mongodb.ProfilerState, notice string) {
	m := o.readMarker(db)
	if m == nil {
		return found, ""
	}
	who := fmt.Sprintf("a capture (pid %d, %s) turned the profiler of %s to level %d and ended without restoring it", m.PID, m.Since.UTC().Format(time.RFC3339), db, m.Set.Level)
	if !same(found, m.Set) {
		// Someone set it since: theirs is the level to keep.
		o.removeMarker(db)
		return found, who + "; it has been changed since (level " + fmt.Sprint(found.Level) + "), so that is the level kept"
	}
	if !o.EnableProfiler {
		return found, fmt.Sprintf("%s: it was at level %d (slowms %d) before. Restore it with capture --enable-profiler (which puts it back after its window), or in mongosh: %s",
			who, m.Found.Level, m.Found.SlowMS, restoreLine(db, m.Found))
	}
	return m.Found, fmt.Sprintf("%s; its level before, %d (slowms %d), is the one restored after this window", who, m.Found.Level, m.Found.SlowMS)
}
