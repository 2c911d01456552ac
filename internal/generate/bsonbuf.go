package generate

import (
	"encoding/binary"
	"math"
)

// maxBSONSize is the server's limit on one document (16 MiB). Lengths of
// strings, binaries and arrays are capped at it, and arrays stop growing
// once they pass it, so that no template can make a worker exhaust memory:
// the server would reject such a document anyway.
const maxBSONSize = 16 * 1024 * 1024

// reserve appends a 4-byte length placeholder and returns where it starts.
func reserve(dst []byte) (int, []byte) {
	return len(dst), append(dst, 0, 0, 0, 0)
}

// closeDoc ends a document or array begun by reserve at start: it appends
// the terminating NUL and writes the length, which counts itself.
func closeDoc(dst []byte, start int) []byte {
	dst = append(dst, 0)
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start))
	return dst
}

// closeString ends a string begun by reserve at start: the length counts
// the bytes after itself, including the NUL appended here.
func closeString(dst []byte, start int) []byte {
	dst = append(dst, 0)
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}

// appendString appends a BSON string value.
func appendString(dst []byte, s string) []byte {
	start, dst := reserve(dst)
	dst = append(dst, s...)
	return closeString(dst, start)
}

func appendInt32(dst []byte, v int32) []byte {
	return binary.LittleEndian.AppendUint32(dst, uint32(v))
}

func appendInt64(dst []byte, v int64) []byte {
	return binary.LittleEndian.AppendUint64(dst, uint64(v))
}

func appendDouble(dst []byte, f float64) []byte {
	return binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
}

func appendBool(dst []byte, b bool) []byte {
	if b {
		return append(dst, 1)
	}
	return append(dst, 0)
}
