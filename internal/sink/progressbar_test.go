package sink

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressBar: on a terminal the bar is redrawn in place and erased at
// the end; elsewhere it is a line every few seconds.
func TestProgressBar(t *testing.T) {
	line := func(p string) string { return p }
	p := "load db.c [############............]  50.0%"
	var tty bytes.Buffer
	b := &ProgressBar[string]{w: &tty, line: line, tty: true, every: 5 * time.Second, now: time.Now}
	b.Update(p, false)
	b.Update(p, false)
	b.Update(p, true)
	if got := tty.String(); strings.Count(got, "\r") != 3 || strings.Contains(got, "\n") || !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("terminal output %q", got)
	}
	var log bytes.Buffer
	now := time.Unix(0, 0)
	b = &ProgressBar[string]{w: &log, line: line, every: 5 * time.Second, now: func() time.Time { return now }, last: now}
	for range 12 { // one update a second
		b.Update(p, false)
		now = now.Add(time.Second)
	}
	if got := strings.Count(log.String(), "\n"); got != 2 || strings.Contains(log.String(), "\r") {
		t.Errorf("%d lines in 12s, want 2 (at 5s and 10s):\n%s", got, log.String())
	}
}
