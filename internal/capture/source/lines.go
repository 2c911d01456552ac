package source

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// maxLine is the longest line a log or an export may hold: a longer one
// (a 70 MB literal) is skipped and counted, the lines around it are read.
// A variable so that tests need not write 64 MiB.
var maxLine = 64 << 20

// eachLine calls fn with every line of r (without its newline) but those
// longer than maxLine, which it counts in *long instead. Only a read error
// stops it; the lines before are kept.
func eachLine(r io.Reader, long *int, fn func(line []byte)) error {
	br := bufio.NewReaderSize(r, 1<<20)
	var buf []byte
	over := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !over {
			if len(buf)+len(chunk) > maxLine+1 {
				over, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the line goes on
		}
		if len(chunk) > 0 || len(buf) > 0 || over {
			if over {
				*long++
			} else {
				fn(bytes.TrimRight(buf, "\r\n"))
			}
		}
		buf, over = buf[:0], false
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readMaybeGzip reads a file, gunzipping it when it starts with gzip's
// magic bytes (mongod.log.1.gz). A gzip stream cut short (a copy taken
// while it was written, a partial download) gives what it held: the data
// and a note saying where it ends, not an error.
func readMaybeGzip(path string) (data []byte, note string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	data, err = io.ReadAll(maybeGzip(f))
	if err != nil && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum)) {
		return data, fmt.Sprintf("%s: the gzip stream is cut short (%v) after %d bytes: the lines before were read, the rest of the file is lost", path, err, len(data)), nil
	}
	return data, "", err
}

// maybeGzip unzips r when it is gzip; it reads r from the start either way.
func maybeGzip(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		if zr, err := gzip.NewReader(br); err == nil {
			return zr
		}
	}
	return br
}
