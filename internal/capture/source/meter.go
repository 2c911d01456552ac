package source

import (
	"fmt"
	"time"
)

// meter tells how far the reading of large logs is: bytes, lines per
// second and the time left, every few seconds (a week of logs takes
// minutes).
type meter struct {
	total    int64 // bytes of every file
	before   int64 // bytes of the files already read
	cur      *countingReader
	progress func(string)
	start    time.Time
	last     time.Time
	shown    bool
}

// showFrom: smaller inputs are read before a line would help.
const showFrom = 64 << 20

const showEvery = 2 * time.Second

func newMeter(total int64, progress func(string)) *meter {
	now := time.Now()
	return &meter{total: total, progress: progress, start: now, last: now}
}

// file starts the next file.
func (m *meter) file(c *countingReader) {
	if m.cur != nil {
		m.before += m.cur.n.Load()
	}
	m.cur = c
}

func (m *meter) read() int64 {
	n := m.before
	if m.cur != nil {
		n += m.cur.n.Load()
	}
	return n
}

// tick is called for every line; it looks at the clock every 4096.
func (m *meter) tick(lines int) {
	if m.progress == nil || m.total < showFrom || lines%4096 != 0 {
		return
	}
	now := time.Now()
	if now.Sub(m.last) < showEvery {
		return
	}
	m.last, m.shown = now, true
	read, secs := m.read(), now.Sub(m.start).Seconds()
	rate := float64(read) / secs
	left := "?"
	if rate > 0 {
		left = fmt.Sprintf("%.0fs", float64(m.total-read)/rate)
	}
	m.progress(fmt.Sprintf("reading logs: %d of %d MB (%.0f%%), %d lines, %.0f lines/s, %.0f MB/s, about %s left",
		read>>20, m.total>>20, 100*float64(read)/float64(m.total), lines, float64(lines)/secs, rate/(1<<20), left))
}

// done says what the reading took, when progress was shown.
func (m *meter) done(lines int) {
	if !m.shown {
		return
	}
	secs := time.Since(m.start).Seconds()
	m.progress(fmt.Sprintf("read %d MB of logs, %d lines, in %.1fs (%.0f MB/s, %.0f lines/s)",
		m.read()>>20, lines, secs, float64(m.read())/secs/(1<<20), float64(lines)/secs))
}
