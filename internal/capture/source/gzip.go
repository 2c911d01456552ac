package source

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// A gzip input can end badly in three ways, each said for what it is
// (docs/capture.md: one bad part never loses the rest): cut short (a copy
// taken while it was written: the lines before the cut were read), damaged
// (a byte changed: the checksum, or the deflate data, does not match; what
// came out after the damage may be garbled) and stray bytes after its
// last member (padding, a log line appended to the .gz: every line was
// read). Members one after the other (cat a.gz b.gz) are one stream.

// gzipDamage is how a gzip input ended badly.
type gzipDamage struct {
	kind   string // "cut short", "damaged" or "stray bytes"
	offset int64  // in the compressed file: where the damage or the stray bytes were found
	err    error  // the decompressor's error (nil for stray bytes)
	stray  int64  // stray bytes: how many (up to maxStray+1)
}

func (d *gzipDamage) Error() string {
	switch d.kind {
	case "stray bytes":
		n := fmt.Sprint(d.stray)
		if d.stray > maxStray {
			n = "over " + fmt.Sprint(maxStray)
		}
		return fmt.Sprintf("%s stray bytes after the gzip data, from byte %d (not gzip)", n, d.offset)
	case "cut short":
		return fmt.Sprintf("the gzip data is cut short at byte %d", d.offset)
	}
	return fmt.Sprintf("the gzip data is corrupt, not cut short (%v, found at byte %d)", d.err, d.offset)
}

// maxStray bounds the stray bytes counted after the gzip data.
const maxStray = 1 << 20

// gzipStream unzips a gzip input member after member, telling how it
// ended (gzipDamage) rather than the decompressor's bare error.
type gzipStream struct {
	raw *countingReader // the compressed bytes read
	br  *bufio.Reader
	zr  *gzip.Reader
	err error
}

// maybeGzip unzips r when it is gzip; it reads r from the start either way.
func maybeGzip(r io.Reader) io.Reader {
	raw := &countingReader{r: r}
	br := bufio.NewReader(raw)
	if magic, err := br.Peek(2); err != nil || magic[0] != 0x1f || magic[1] != 0x8b {
		return br
	}
	g := &gzipStream{raw: raw, br: br}
	zr, err := gzip.NewReader(br)
	if err != nil {
		g.err = g.damage(err)
		return g
	}
	zr.Multistream(false)
	g.zr = zr
	return g
}

// offset is where in the compressed input the reading is.
func (g *gzipStream) offset() int64 { return g.raw.n.Load() - int64(g.br.Buffered()) }

func (g *gzipStream) Read(p []byte) (int, error) {
	for g.err == nil {
		n, err := g.zr.Read(p)
		switch {
		case err == io.EOF:
			g.err = g.next() // this member is whole: its checksum held
		case err != nil:
			g.err = g.damage(err)
		}
		if n > 0 || g.err == nil && len(p) == 0 {
			return n, nil
		}
	}
	return 0, g.err
}

// next starts the member after a whole one: io.EOF at the input's end,
// stray bytes when what follows is not gzip.
func (g *gzipStream) next() error {
	magic, err := g.br.Peek(2)
	switch {
	case err == io.EOF && len(magic) == 0:
		return io.EOF
	case len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b:
		at := g.offset()
		n, _ := io.CopyN(io.Discard, g.br, maxStray+1)
		return &gzipDamage{kind: "stray bytes", offset: at, stray: n}
	}
	if err := g.zr.Reset(g.br); err != nil {
		return g.damage(err)
	}
	g.zr.Multistream(false)
	return nil
}

// damage says what the decompressor's err means.
func (g *gzipStream) damage(err error) error {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return &gzipDamage{kind: "cut short", offset: g.offset(), err: err}
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader), errors.As(err, &corrupt):
		return &gzipDamage{kind: "damaged", offset: g.offset(), err: err}
	}
	return err // a read error of the file itself
}

// gzipLost is the lost: line of a gzip input named name that ended badly
// (false when err is no gzipDamage), given what was read: lines read in
// all, and those of them that did not parse.
func gzipLost(name string, err error, lines, unreadable int) (string, bool) {
	var d *gzipDamage
	if !errors.As(err, &d) {
		return "", false
	}
	switch d.kind {
	case "stray bytes":
		return fmt.Sprintf("%s: %v: ignored; all %d lines before them were read", name, d, lines), true
	case "cut short":
		return fmt.Sprintf("%s: %v: the %d lines before the cut were read, the rest of the file is lost", name, d, lines), true
	}
	pct := 0.0
	if lines > 0 {
		pct = 100 * float64(unreadable) / float64(lines)
	}
	return fmt.Sprintf("%s: %v: %d lines were read and the %d that parse are kept; %d (%.0f%%) are unreadable: a damaged byte garbles what comes out after it; nothing after byte %d is read",
		name, d, lines, lines-unreadable, unreadable, pct, d.offset), true
}
