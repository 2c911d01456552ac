package source

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// extjsonwrap.go: the extended-JSON wrappers of the fast reader
// (extjson.go), each written as the BSON value it stands for.

// isWrapper: the driver reads an object whose first key is this as a
// value of a type, not a document.
func isWrapper(key string) bool {
	switch key {
	case "$oid", "$symbol", "$numberInt", "$numberLong", "$numberDouble", "$numberDecimal", "$binary", "$code",
		"$scope", "$timestamp", "$regularExpression", "$dbPointer", "$date", "$minKey", "$maxKey", "$undefined",
		"$regex", "$options", "$type", "$uuid":
		return true
	}
	return false
}

// wrapper reads the extended-JSON wrappers mongod writes; the others go
// to the driver.
func (p *jsonReader) wrapper(dst []byte, key string) ([]byte, bson.Type, error) {
	p.i++ // {
	p.space()
	p.i += len(key) + 2
	if !p.expect(':') {
		return dst, 0, errJSON
	}
	p.space()
	var text string
	var err error
	switch key {
	case "$binary", "$timestamp":
		return p.pairWrapper(dst, key)
	}
	if key == "$date" && p.peek() == '{' {
		if k, ok := p.firstKey(); !ok || k != "$numberLong" {
			return dst, 0, errSlowPath
		}
		p.i++
		p.space()
		p.i += len("$numberLong") + 2
		if !p.expect(':') {
			return dst, 0, errJSON
		}
		p.space()
		if text, err = p.plainString(); err != nil || !p.expect('}') {
			return dst, 0, errSlowPath
		}
		key = "$date$numberLong"
	} else if text, err = p.plainString(); err != nil {
		return dst, 0, errSlowPath
	}
	if !p.expect('}') {
		return dst, 0, errSlowPath
	}
	switch key {
	case "$date":
		t, err := time.Parse(time.RFC3339Nano, text)
		if err != nil {
			return dst, 0, errSlowPath
		}
		return binary.LittleEndian.AppendUint64(dst, uint64(bson.NewDateTimeFromTime(t))), bson.TypeDateTime, nil
	case "$date$numberLong", "$numberLong":
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return dst, 0, errSlowPath
		}
		t := bson.TypeInt64
		if key != "$numberLong" {
			t = bson.TypeDateTime
		}
		return binary.LittleEndian.AppendUint64(dst, uint64(v)), t, nil
	case "$numberInt":
		v, err := strconv.ParseInt(text, 10, 32)
		if err != nil {
			return dst, 0, errSlowPath
		}
		return binary.LittleEndian.AppendUint32(dst, uint32(int32(v))), bson.TypeInt32, nil
	case "$numberDouble":
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || text != "Infinity" && text != "-Infinity" && text != "NaN" && (math.IsInf(f, 0) || math.IsNaN(f)) {
			return dst, 0, errSlowPath
		}
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(f)), bson.TypeDouble, nil
	case "$numberDecimal":
		d, err := bson.ParseDecimal128(text)
		if err != nil {
			return dst, 0, errSlowPath
		}
		h, l := d.GetBytes()
		dst = binary.LittleEndian.AppendUint64(dst, l)
		return binary.LittleEndian.AppendUint64(dst, h), bson.TypeDecimal128, nil
	case "$uuid":
		var id [16]byte
		if len(text) != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' || text[23] != '-' {
			return dst, 0, errSlowPath
		}
		hexText := text[0:8] + text[9:13] + text[14:18] + text[19:23] + text[24:]
		if _, err := hex.Decode(id[:], []byte(hexText)); err != nil {
			return dst, 0, errSlowPath
		}
		dst = binary.LittleEndian.AppendUint32(dst, 16)
		return append(append(dst, 4), id[:]...), bson.TypeBinary, nil
	case "$oid":
		if len(text) != 24 {
			return dst, 0, errSlowPath
		}
		var id [12]byte
		if _, err := hex.Decode(id[:], []byte(text)); err != nil {
			return dst, 0, errSlowPath
		}
		return append(dst, id[:]...), bson.TypeObjectID, nil
	}
	return dst, 0, errSlowPath
}

// pairWrapper reads {"$binary": {"base64": ..., "subType": ...}} and
// {"$timestamp": {"t": ..., "i": ...}}, their two keys in either order.
func (p *jsonReader) pairWrapper(dst []byte, key string) ([]byte, bson.Type, error) {
	if !p.expect('{') {
		return dst, 0, errJSON
	}
	var vals [2]string
	names := [2]string{"base64", "subType"}
	if key == "$timestamp" {
		names = [2]string{"t", "i"}
	}
	for n := 0; n < 2; n++ {
		p.space()
		name, err := p.plainString()
		if err != nil || !p.expect(':') {
			return dst, 0, errSlowPath
		}
		p.space()
		var v string
		if key == "$timestamp" {
			start := p.i
			for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
				p.i++
			}
			v = string(p.b[start:p.i])
		} else if v, err = p.plainString(); err != nil {
			return dst, 0, errSlowPath
		}
		switch {
		case name == names[0] && vals[0] == "" && v != "":
			vals[0] = v
		case name == names[1] && vals[1] == "" && v != "":
			vals[1] = v
		default:
			return dst, 0, errSlowPath
		}
		if n == 0 && !p.expect(',') {
			return dst, 0, errSlowPath
		}
	}
	if !p.expect('}') || !p.expect('}') {
		return dst, 0, errSlowPath
	}
	if key == "$timestamp" {
		t, err1 := strconv.ParseUint(vals[0], 10, 32)
		i, err2 := strconv.ParseUint(vals[1], 10, 32)
		if err1 != nil || err2 != nil {
			return dst, 0, errSlowPath
		}
		return binary.LittleEndian.AppendUint64(dst, t<<32|i), bson.TypeTimestamp, nil
	}
	data, err := base64.StdEncoding.DecodeString(vals[0])
	sub, err2 := strconv.ParseUint(vals[1], 16, 8)
	if err != nil || err2 != nil || len(vals[1]) > 2 || sub == 2 {
		return dst, 0, errSlowPath
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(data)))
	return append(append(dst, byte(sub)), data...), bson.TypeBinary, nil
}
