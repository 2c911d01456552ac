package source

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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
	path     string
}

// Two captures of one database may overlap (two DBAs, a cron job): each
// keeps a marker of its own (named after its pid), the second takes the
// first's original level as its own, and only the last to end restores
// it: the first must not turn the profiler down in the second's window.
// Captures on other hosts are not seen (the markers are this host's).

// markerPath is this capture's marker file for db of the deployment (""
// when capture keeps no state: no StateDir): named after the process and
// the capture, as one process may run several (tests, a library user).
func (o Options) markerPath(db string) string {
	if o.StateDir == "" {
		return ""
	}
	return o.markerPrefix(db) + "-" + strconv.Itoa(os.Getpid()) + "-" + o.captureID() + ".json"
}

// running holds the marker files of this process's captures in progress.
var running sync.Map

var captureSeq atomic.Int64

// captureID names one capture within the process.
func (o Options) captureID() string {
	if o.id == nil {
		return "0"
	}
	return strconv.FormatInt(*o.id, 10)
}

func (o Options) markerPrefix(db string) string {
	h := sha256.Sum256([]byte(o.Deployment + "\x00" + db))
	return filepath.Join(o.StateDir, "profiler-"+hex.EncodeToString(h[:8]))
}

// readMarkers reads db's markers but this capture's own: those of
// captures that died without restoring, and those of captures still
// running (live).
func (o Options) readMarkers(db string) (dead, live []marker) {
	if o.StateDir == "" {
		return nil, nil
	}
	paths, _ := filepath.Glob(o.markerPrefix(db) + "*.json") // profiler-HASH.json: an older capture's
	for _, p := range paths {
		if p == o.markerPath(db) {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var m marker
		if json.Unmarshal(data, &m) != nil || m.Database != db {
			continue
		}
		m.path = p
		_, ours := running.Load(p)
		if m.PID == os.Getpid() && ours || m.PID != os.Getpid() && alive(m.PID) {
			live = append(live, m)
		} else {
			dead = append(dead, m)
		}
	}
	return dead, live
}

// alive: a process of that pid runs (signal 0 reaches it, or it is
// another user's).
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
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
	running.Store(p, true)
	return nil
}

func (o Options) removeMarker(db string) {
	if p := o.markerPath(db); p != "" {
		running.Delete(p)
		_ = os.Remove(p)
	}
}

// othersReading names the captures still reading db's profiler, which
// this one must not restore under.
func (o Options) othersReading(db string) string {
	_, live := o.readMarkers(db)
	var pids []string
	for _, m := range live {
		pids = append(pids, strconv.Itoa(m.PID))
	}
	return strings.Join(pids, ", ")
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

// leftBehind looks for the markers of db: a capture still running with
// the profiler on (its original level is the one to restore, by whichever
// capture ends last), or one that changed it and never restored it. It
// returns the state to restore at the end of this capture and a notice.
func (o Options) leftBehind(db string, found mongodb.ProfilerState) (original mongodb.ProfilerState, notice string, shared bool) {
	dead, live := o.readMarkers(db)
	if len(live) > 0 {
		m := live[0]
		return m.Found, fmt.Sprintf("another capture (pid %d, since %s) has the profiler of %s at level %d for its window: this one shares it; the last of them to end restores level %d (slowms %d)",
			m.PID, m.Since.UTC().Format(time.RFC3339), db, m.Set.Level, m.Found.Level, m.Found.SlowMS), true
	}
	if len(dead) == 0 {
		return found, "", false
	}
	m := dead[0]
	who := fmt.Sprintf("a capture (pid %d, %s) turned the profiler of %s to level %d and ended without restoring it", m.PID, m.Since.UTC().Format(time.RFC3339), db, m.Set.Level)
	if !same(found, m.Set) {
		// Someone set it since: theirs is the level to keep.
		removeAll(dead)
		return found, who + "; it has been changed since (level " + fmt.Sprint(found.Level) + "), so that is the level kept", false
	}
	if !o.EnableProfiler {
		return found, fmt.Sprintf("%s: it was at level %d (slowms %d) before. Restore it with capture --enable-profiler (which puts it back after its window), or in mongosh: %s",
			who, m.Found.Level, m.Found.SlowMS, restoreLine(db, m.Found)), false
	}
	removeAll(dead) // this capture's own marker carries the original on
	return m.Found, fmt.Sprintf("%s; its level before, %d (slowms %d), is the one restored after this window", who, m.Found.Level, m.Found.SlowMS), false
}

func removeAll(ms []marker) {
	for _, m := range ms {
		_ = os.Remove(m.path)
	}
}
