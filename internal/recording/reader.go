package recording

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/trace"
)

// Tool is the header's tool of a recording read as a trace.
const Tool = "MongoDB traffic recording"

// Reader reads a recording's requests as trace entries, in the order the
// server received them, each with its duration: from the request to the
// response on its connection (the server answers a connection's requests
// one at a time, in order).
type Reader struct {
	files   []string
	f       *os.File
	r       *bufio.Reader
	base    time.Time // the recording's start: the first file's name
	pending []*pendingEntry
	byConn  map[uint64][]*pendingEntry // requests waiting for their response
	done    bool
	buf     []byte
	layout  layout
	sums    map[string]uint32 // checksum.txt: each file's CRC-32C, by name
	name    string            // the file being read
	crc     hash.Hash32       // its bytes read so far

	Header  trace.Header
	Trailer *trace.Trailer // once Next returned io.EOF
	Damage  trace.Damage
	// Skipped counts requests that are no operation of one collection
	// (a compressed or legacy message), by why.
	Skipped map[string]int64
	packets int64
}

type pendingEntry struct {
	e       trace.Entry
	waiting bool
	at      time.Time
}

// window bounds how long a request waits for its response (in the
// recording's time) before it is handed on without a duration: a
// connection that never answered must not hold every entry after it.
const window = time.Minute

// IsRecording says whether path looks like a traffic recording: a
// directory holding .bin files, or a .bin file whose first packet reads.
func IsRecording(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if fi.IsDir() {
		files, _ := binFiles(path)
		return len(files) > 0
	}
	_, err = firstPacket(path)
	return err == nil
}

// firstPacket is the layout the file's first packet reads in.
func firstPacket(path string) (layout, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var size [4]byte
	if _, err := io.ReadFull(f, size[:]); err != nil {
		return 0, ErrLayout
	}
	n := binary.LittleEndian.Uint32(size[:])
	if n < minPacket || n > maxPacket {
		return 0, ErrLayout
	}
	b := make([]byte, n)
	copy(b, size[:])
	if _, err := io.ReadFull(f, b[4:]); err != nil {
		return 0, ErrLayout
	}
	return detect(b)
}

// Open opens a recording: a directory of .bin files, or one of them.
func Open(path string) (*Reader, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	files := []string{path}
	if fi.IsDir() {
		if files, err = binFiles(path); err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s holds no recording file (NNN.bin)", path)
		}
	}
	l, err := firstPacket(files[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", files[0], err)
	}
	r := &Reader{files: files, layout: l, sums: checksums(filepath.Dir(files[0])), byConn: map[uint64][]*pendingEntry{}, Skipped: map[string]int64{},
		Header: trace.Header{Version: trace.Version, Tool: Tool}}
	// The recorder names each file by the millisecond it opened it; the
	// first opened as the recording started, which its offsets count from.
	if ms, err := strconv.ParseInt(strings.TrimSuffix(filepath.Base(files[0]), ".bin"), 10, 64); err == nil {
		r.base = time.UnixMilli(ms).UTC()
	}
	r.Header.Created = r.base
	if err := r.next(); err != nil {
		return nil, err
	}
	return r, nil
}

// binFiles lists dir's .bin files in name order (the recorder's order:
// names are the millisecond each was opened).
func binFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".bin") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(filepath.Base(a), filepath.Base(b)) })
	return out, nil
}

// next opens the next file; io.EOF when there is none. The file read to
// its end is checked against checksum.txt's line for it.
func (r *Reader) next() error {
	if r.f != nil {
		if want, ok := r.sums[r.name]; ok && r.crc.Sum32() != want {
			r.Damage.BadChecksums++
		}
		r.f.Close()
		r.f = nil
	}
	if len(r.files) == 0 {
		return io.EOF
	}
	f, err := os.Open(r.files[0])
	if err != nil {
		return err
	}
	r.name, r.files = filepath.Base(r.files[0]), r.files[1:]
	r.crc = crc32.New(crc32.MakeTable(crc32.Castagnoli))
	r.f, r.r = f, bufio.NewReaderSize(io.TeeReader(f, r.crc), 256<<10)
	return nil
}

// checksums reads the recorder's checksum.txt in dir: a line per file,
// its path on the server, a tab, and the CRC-32C of its bytes in hex.
// None when there is no such file.
func checksums(dir string) map[string]uint32 {
	b, err := os.ReadFile(filepath.Join(dir, "checksum.txt"))
	if err != nil {
		return nil
	}
	sums := map[string]uint32{}
	for _, line := range strings.Split(string(b), "\n") {
		path, sum, ok := strings.Cut(line, "\t")
		if v, err := strconv.ParseUint(strings.TrimSpace(sum), 16, 32); ok && err == nil {
			sums[filepath.Base(path)] = uint32(v)
		}
	}
	return sums
}

// Close closes the file being read.
func (r *Reader) Close() error {
	if r.f != nil {
		return r.f.Close()
	}
	return nil
}

// Next returns the next request as an entry, or io.EOF once every file
// was read; damage is counted in Damage, never returned.
func (r *Reader) Next() (trace.Entry, error) {
	for {
		if len(r.pending) > 0 && !r.pending[0].waiting {
			e := r.pending[0].e
			r.pending = r.pending[1:]
			return e, nil
		}
		if r.done {
			if len(r.pending) == 0 {
				r.finish()
				return trace.Entry{}, io.EOF
			}
			r.pending[0].waiting = false // its response was never recorded
			continue
		}
		p, err := r.read()
		switch {
		case errors.Is(err, io.EOF):
			r.done = true
			continue
		case err != nil:
			continue // counted
		}
		r.take(p)
	}
}

// read reads the next packet of the recording, across its files.
func (r *Reader) read() (packet, error) {
	for {
		var size [4]byte
		if _, err := io.ReadFull(r.r, size[:]); err != nil {
			if err != io.EOF {
				r.Damage.Truncated = true // a file cut inside a packet's size
			}
			if err := r.next(); err != nil {
				return packet{}, io.EOF
			}
			continue
		}
		n := binary.LittleEndian.Uint32(size[:])
		if n < minPacket || n > maxPacket {
			// A size that does not read: nothing after it in this file can
			// be found again (no packet has a marker to resync on).
			rest, _ := io.Copy(io.Discard, r.r)
			r.Damage.LostFrames++
			r.Damage.SkippedB += rest + 4
			if err := r.next(); err != nil {
				return packet{}, io.EOF
			}
			continue
		}
		if cap(r.buf) < int(n) {
			r.buf = make([]byte, n)
		}
		b := r.buf[:n]
		copy(b, size[:])
		if _, err := io.ReadFull(r.r, b[4:]); err != nil {
			r.Damage.Truncated = true
			r.Damage.LostEntries++
			if err := r.next(); err != nil {
				return packet{}, io.EOF
			}
			continue
		}
		r.packets++
		p, err := parsePacket(b, r.layout)
		if err != nil {
			r.Damage.BadEntries++
			return packet{}, err
		}
		p.msg = slices.Clone(p.msg)
		return p, nil
	}
}

// take files one packet: a request joins the entries waiting for their
// response, a response ends the oldest request of its connection, a
// session's end ends them all.
func (r *Reader) take(p packet) {
	at := r.base.Add(time.Duration(p.offset) * time.Microsecond)
	if r.layout != layoutEvents {
		at = time.UnixMilli(p.date).UTC()
	}
	r.expire(at)
	switch p.event {
	case eventRequest:
		e, why := entryOf(p, at)
		if why != "" {
			r.Skipped[why]++
			return
		}
		pe := &pendingEntry{e: e, waiting: true, at: at}
		r.pending = append(r.pending, pe)
		if m, err := parseOpMsg(p.msg); err == nil && m.flags&flagMoreToCome != 0 {
			pe.waiting = false // no response comes
			return
		}
		r.byConn[p.conn] = append(r.byConn[p.conn], pe)
	case eventResponse:
		q := r.byConn[p.conn]
		if len(q) == 0 {
			return // a response to a request recorded before the recording began
		}
		q[0].e.Dur, q[0].waiting = at.Sub(q[0].at), false
		r.byConn[p.conn] = q[1:]
	case eventSessionEnd:
		for _, pe := range r.byConn[p.conn] {
			pe.waiting = false
		}
		delete(r.byConn, p.conn)
	}
}

// expire hands on, without a duration, requests that waited longer than
// window for their response.
func (r *Reader) expire(now time.Time) {
	for _, pe := range r.pending {
		if !pe.waiting || now.Sub(pe.at) <= window {
			break
		}
		pe.waiting = false
	}
}

// finish is the trailer: the recorder's one source.
func (r *Reader) finish() {
	if r.Trailer != nil {
		return
	}
	r.Trailer = &trace.Trailer{Sources: []trace.Source{{Name: "traffic recording", Complete: true,
		Why: "every message the server received while it recorded (a recording whose buffer filled was stopped by the server, which says so in serverStatus' trafficRecording, not in the files)"}}}
}
