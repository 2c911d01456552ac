package trace

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Damage is what a reader could not read, counted rather than fatal: the
// part of a trace that reads is replayed.
type Damage struct {
	LostEntries int64 // entries of damaged frames whose head still read
	LostFrames  int   // damaged frames (their entries counted where known)
	SkippedB    int64 // bytes skipped looking for the next frame
	Truncated   bool  // the file ends inside a frame, or without its trailer
	BadEntries  int64 // entries of sound frames that did not decode
	// BadChecksums counts the files of a MongoDB traffic recording whose
	// bytes do not match the checksum the recorder wrote beside them
	// (internal/recording): read as they are, and said.
	BadChecksums int
}

// Any says whether anything was lost.
func (d Damage) Any() bool {
	return d.LostEntries+d.SkippedB+d.BadEntries > 0 || d.LostFrames+d.BadChecksums > 0 || d.Truncated
}

// String says what was lost, in one phrase.
func (d Damage) String() string {
	s := ""
	add := func(p string) {
		if s != "" {
			s += ", "
		}
		s += p
	}
	if d.LostFrames > 0 {
		add(fmt.Sprintf("%d damaged frame(s) holding %d operation(s) skipped", d.LostFrames, d.LostEntries))
	}
	if d.SkippedB > 0 {
		add(fmt.Sprintf("%d unreadable bytes skipped", d.SkippedB))
	}
	if d.BadEntries > 0 {
		add(fmt.Sprintf("%d operation(s) that did not decode", d.BadEntries))
	}
	if d.BadChecksums > 0 {
		add(fmt.Sprintf("%d recording file(s) whose bytes do not match the recorder's checksum (checksum.txt)", d.BadChecksums))
	}
	if d.Truncated {
		add("the file is cut short (no trailer: its last operations may be missing)")
	}
	return s
}

// Reader reads a trace frame by frame.
type Reader struct {
	r       *bufio.Reader
	Header  Header
	Trailer *Trailer // once Next returned io.EOF, when the file has one
	Damage  Damage
	frame   []Entry
	at      int
	zr      io.ReadCloser
}

// ErrNotTrace: the file does not start with the magic line.
var ErrNotTrace = errors.New("not a mongoload trace (it does not start with the trace's magic line): write one with capture --trace --keep-values")

// IsTrace says whether the file at path starts with a trace's magic
// line: what tells a trace from another file, whatever its name
// (capture --trace shop.bin writes a trace). A directory, or a file that
// cannot be read, is none.
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

// NewReader checks the magic and reads the header; a file that is no trace,
// or one of a later version, is refused by name.
func NewReader(r io.Reader) (*Reader, error) {
	tr := &Reader{r: bufio.NewReaderSize(r, 256<<10)}
	m := make([]byte, len(magic))
	if _, err := io.ReadFull(tr.r, m); err != nil || string(m) != magic {
		return nil, ErrNotTrace
	}
	kind, docs, err := tr.readFrame()
	if err != nil || kind != kindHeader || len(docs) != 1 {
		return nil, errors.New("the trace's header does not read: the file is damaged at its start")
	}
	if err := bson.Unmarshal(docs[0], &tr.Header); err != nil {
		return nil, fmt.Errorf("the trace's header does not read: %w", err)
	}
	if tr.Header.Version > Version || tr.Header.Version < 1 {
		return nil, fmt.Errorf("trace format version %d: this mongoload reads version %d (use the mongoload that wrote it, or a later one)", tr.Header.Version, Version)
	}
	return tr, nil
}

// Next returns the next entry, or io.EOF at the end; damage is counted in
// Damage, never returned.
func (t *Reader) Next() (Entry, error) {
	for t.at >= len(t.frame) {
		if t.Trailer != nil {
			return Entry{}, io.EOF
		}
		kind, docs, err := t.readFrame()
		switch {
		case errors.Is(err, io.EOF):
			t.Damage.Truncated = t.Trailer == nil
			return Entry{}, io.EOF
		case err != nil:
			continue // counted by readFrame
		}
		switch kind {
		case kindEnd:
			var tr Trailer
			if len(docs) == 1 && bson.Unmarshal(docs[0], &tr) == nil {
				t.Trailer = &tr
			}
		case kindEntry:
			t.frame, t.at = t.frame[:0], 0
			for _, d := range docs {
				e, ok := decode(d)
				if !ok {
					t.Damage.BadEntries++
					continue
				}
				t.frame = append(t.frame, e)
			}
		}
	}
	t.at++
	return t.frame[t.at-1], nil
}

// readFrame reads one frame; a damaged one is counted and skipped up to
// the next frame's magic (an error other than io.EOF says so).
func (t *Reader) readFrame() (byte, []bson.Raw, error) {
	if err := t.resync(); err != nil {
		return 0, nil, err
	}
	var head [headSize]byte
	if _, err := io.ReadFull(t.r, head[:]); err != nil {
		return 0, nil, io.EOF // cut inside a frame's head
	}
	kind, n := head[4], int64(binary.LittleEndian.Uint32(head[5:]))
	raw, size := binary.LittleEndian.Uint32(head[9:]), binary.LittleEndian.Uint32(head[13:])
	sum := binary.LittleEndian.Uint32(head[17:])
	if raw > maxFrame || size > maxFrame || n > maxFrame || kind != kindHeader && kind != kindEntry && kind != kindEnd {
		t.Damage.LostFrames++ // a head that does not read: its count is not believed
		return 0, nil, errors.New("damaged frame head")
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(t.r, data); err != nil {
		t.lose(kind, n)
		t.Damage.Truncated = true
		return 0, nil, io.EOF
	}
	if crc32.ChecksumIEEE(data) != sum {
		t.lose(kind, n)
		return 0, nil, errors.New("damaged frame")
	}
	plain, err := t.inflate(data, raw)
	if err != nil {
		t.lose(kind, n)
		return 0, nil, err
	}
	var docs []bson.Raw
	for len(plain) >= 5 {
		l := int(binary.LittleEndian.Uint32(plain))
		if l < 5 || l > len(plain) {
			break
		}
		docs = append(docs, bson.Raw(plain[:l]))
		plain = plain[l:]
	}
	if kind == kindEntry && int64(len(docs)) < n {
		t.Damage.BadEntries += n - int64(len(docs))
	}
	return kind, docs, nil
}

func (t *Reader) lose(kind byte, n int64) {
	t.Damage.LostFrames++
	if kind == kindEntry {
		t.Damage.LostEntries += n
	}
}

func (t *Reader) inflate(data []byte, raw uint32) ([]byte, error) {
	if t.zr == nil {
		t.zr = flate.NewReader(bytes.NewReader(data))
	} else if err := t.zr.(flate.Resetter).Reset(bytes.NewReader(data), nil); err != nil {
		return nil, err
	}
	out := make([]byte, raw)
	if _, err := io.ReadFull(t.zr, out); err != nil {
		return nil, err
	}
	return out, nil
}

// resync skips to the next frame's magic, counting what it skips.
func (t *Reader) resync() error {
	for {
		b, err := t.r.Peek(len(frameMagic))
		if err != nil {
			if n := t.r.Buffered(); n > 0 {
				t.Damage.SkippedB += int64(n)
				t.Damage.Truncated = true
			}
			return io.EOF
		}
		if string(b) == frameMagic {
			return nil
		}
		t.r.Discard(1)
		t.Damage.SkippedB++
	}
}

// decode reads one entry's document.
func decode(d bson.Raw) (Entry, bool) {
	if d.Validate() != nil {
		return Entry{}, false
	}
	s, ok1 := d.Lookup(fStart).Int64OK()
	dur, ok2 := d.Lookup(fDur).Int64OK()
	ns, ok3 := d.Lookup(fNS).StringValueOK()
	if !ok1 || !ok2 || !ok3 {
		return Entry{}, false
	}
	e := Entry{Start: time.UnixMicro(s).UTC(), Dur: time.Duration(dur) * time.Microsecond, NS: ns}
	e.Op, _ = d.Lookup(fOp).StringValueOK()
	e.Cmd, _ = d.Lookup(fCmd).DocumentOK()
	e.Conn, _ = d.Lookup(fConn).StringValueOK()
	e.App, _ = d.Lookup(fApp).StringValueOK()
	e.Shape, _ = d.Lookup(fShape).StringValueOK()
	return e, true
}
