package source

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync/atomic"
)

// maxLine is the longest line a log or an export may hold: a longer one
// (a 70 MB literal) is skipped and counted, the lines around it are read.
// A variable so that tests need not write 64 MiB.
var maxLine = 64 << 20

// eachLine calls fn with every line of r (without its newline) but those
// longer than maxLine, which it counts in *long instead. A read error, or
// one fn returns, stops it; the lines before are kept.
func eachLine(r io.Reader, long *int, fn func(line []byte) error) error {
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
				if err := fn(bytes.TrimRight(buf, "\r\n")); err != nil {
					return err
				}
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

// countingReader counts the bytes read through it (the progress line's).
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
