// Package recording reads MongoDB's own traffic recordings
// (startTrafficRecording, the server's traffic recorder) as trace entries
// (internal/trace), so that replay takes them as it takes mongoload's
// traces (docs/replay.md).
//
// The layout, from MongoDB's source (src/mongo/db/traffic_recorder.cpp,
// PacketWriter::serializeHeaderForPacket; the event types in
// traffic_recorder_event.h): a recording is a directory of files named by
// the millisecond they were opened (NNN.bin, read in name order), each a
// run of packets, little-endian, with no file header:
//
//	size:4        the packet's length, these 4 bytes and the message included
//	event:1       0 request, 1 response, 2 session start, 3 session end
//	conn:8        the server's id of the connection (session)
//	session:cstr  the session's description (its addresses), NUL-terminated
//	offset:8      microseconds since the recording started
//	order:8       the packet's place among all the recording's packets
//	message       the wire message, header included (none for session events)
//
// The file holds no version. Earlier servers wrote no event byte and the
// date in milliseconds since 1970 in place of the offset (and, earlier
// still, the local and remote addresses as two strings in place of the
// session): the first packet says which layout a recording is in (that
// date is far beyond any offset), and those layouts are read too, to the
// millisecond, a response told from a request by its responseTo.
package recording

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// The packet's event types.
const (
	eventRequest      = 0
	eventResponse     = 1
	eventSessionStart = 2
	eventSessionEnd   = 3
)

// Wire protocol: the message header's size and the opcodes read.
const (
	msgHeaderSize = 16
	opMsg         = 2013
	opCompressed  = 2012
	// maxPacket bounds a packet (the server's largest message, 48 MB, and
	// its header), so that a damaged size cannot ask for gigabytes.
	maxPacket = 48<<20 + 1<<16
	// minPacket is a packet with an empty session and no message.
	minPacket = 4 + 1 + 8 + 1 + 8 + 8
	// maxOffset is the latest offset believed: 11 days in microseconds
	// (a scheduled recording ends within 10). An earlier layout holds a
	// date in milliseconds since 1970 there, above 10^12: read as an
	// offset, it is beyond this bound, so the packet reads in that layout
	// instead (detect).
	maxOffset = 11 * 24 * 3600 * 1e6
)

// ErrLayout says a file is not laid out as this reader knows.
var ErrLayout = errors.New("not a MongoDB traffic recording in a layout this reader knows (MongoDB 8's: size, event type, connection, session, offset, order, message; or an earlier server's, with the date in place of the event type and offset)")

// packet is one recorded packet.
type packet struct {
	event   byte
	conn    uint64
	session string
	offset  uint64 // microseconds since the recording started (layoutEvents)
	date    int64  // milliseconds since 1970 (the earlier layouts)
	order   uint64
	msg     []byte // the wire message, header included; empty for a session event
}

// layout is one of the packet layouts MongoDB's recorder has written.
type layout int

const (
	// layoutEvents is MongoDB 8's (the package comment).
	layoutEvents layout = iota
	// layoutDated is the one before: no event byte, and the date the
	// packet was seen, in milliseconds since 1970, in place of the offset
	// (a request and its response told apart by the response's
	// responseTo).
	layoutDated
	// layoutAddressed is the one before that: the local and the remote
	// address as two strings in place of the session.
	layoutAddressed
)

// Dates a dated layout's packet may hold (milliseconds since 1970): from
// 2009, MongoDB's first year, to 2100.
const (
	minDate = 1230768000000
	maxDate = 4102444800000
)

// parsePacket reads one packet of layout l from b (its size field
// included).
func parsePacket(b []byte, l layout) (packet, error) {
	if len(b) < minPacket || int(binary.LittleEndian.Uint32(b)) != len(b) {
		return packet{}, ErrLayout
	}
	rest := b[4:]
	var p packet
	if l == layoutEvents {
		p.event, rest = rest[0], rest[1:]
		if p.event > eventSessionEnd {
			return packet{}, ErrLayout
		}
	}
	p.conn, rest = binary.LittleEndian.Uint64(rest), rest[8:]
	strs := 1
	if l == layoutAddressed {
		strs = 2
	}
	for range strs {
		nul := bytes.IndexByte(rest, 0)
		if nul < 0 {
			return packet{}, ErrLayout
		}
		p.session, rest = p.session+string(rest[:nul]), rest[nul+1:]
	}
	if len(rest) < 16 {
		return packet{}, ErrLayout
	}
	when, order := binary.LittleEndian.Uint64(rest), binary.LittleEndian.Uint64(rest[8:])
	p.order, p.msg = order, rest[16:]
	if l == layoutEvents {
		if p.offset = when; p.offset > maxOffset {
			return packet{}, ErrLayout // an earlier layout's date, in milliseconds since 1970
		}
	} else {
		if when < minDate || when > maxDate {
			return packet{}, ErrLayout
		}
		p.date = int64(when)
		if len(p.msg) < msgHeaderSize {
			return packet{}, ErrLayout // no session events in these layouts
		}
		if binary.LittleEndian.Uint32(p.msg[8:]) != 0 { // responseTo
			p.event = eventResponse
		}
	}
	switch {
	case len(p.msg) == 0:
		if p.event == eventRequest || p.event == eventResponse {
			return packet{}, ErrLayout
		}
	case len(p.msg) < msgHeaderSize || int(binary.LittleEndian.Uint32(p.msg)) != len(p.msg):
		return packet{}, ErrLayout
	}
	return p, nil
}

// detect is the layout b's packet reads in, the latest first.
func detect(b []byte) (layout, error) {
	for _, l := range []layout{layoutEvents, layoutDated, layoutAddressed} {
		if _, err := parsePacket(b, l); err == nil {
			return l, nil
		}
	}
	return 0, ErrLayout
}

// opcode is the message's opcode (0 for none).
func (p packet) opcode() int32 {
	if len(p.msg) < msgHeaderSize {
		return 0
	}
	return int32(binary.LittleEndian.Uint32(p.msg[12:]))
}

// OP_MSG flag bits.
const (
	flagChecksum   = 1 << 0
	flagMoreToCome = 1 << 1
)

// opMsg is an OP_MSG: its body and its document sequences.
type opMsgBody struct {
	flags uint32
	body  []byte
	seqs  []docSeq
}

type docSeq struct {
	id   string
	docs [][]byte
}

// parseOpMsg reads an OP_MSG's sections (its checksum, if any, left out:
// the recorder does not keep every header field, so it is not checked).
func parseOpMsg(msg []byte) (opMsgBody, error) {
	b := msg[msgHeaderSize:]
	if len(b) < 4 {
		return opMsgBody{}, errors.New("an OP_MSG without its flags")
	}
	m := opMsgBody{flags: binary.LittleEndian.Uint32(b)}
	b = b[4:]
	if m.flags&flagChecksum != 0 {
		if len(b) < 4 {
			return opMsgBody{}, errors.New("an OP_MSG without its checksum")
		}
		b = b[:len(b)-4]
	}
	for len(b) > 0 {
		kind := b[0]
		b = b[1:]
		switch kind {
		case 0:
			d, rest, err := doc(b)
			if err != nil {
				return opMsgBody{}, err
			}
			m.body, b = d, rest
		case 1:
			if len(b) < 4 {
				return opMsgBody{}, errors.New("a document sequence without its size")
			}
			size := int(binary.LittleEndian.Uint32(b))
			if size < 5 || size > len(b) {
				return opMsgBody{}, fmt.Errorf("a document sequence of %d bytes in %d", size, len(b))
			}
			sec, rest := b[4:size], b[size:]
			nul := bytes.IndexByte(sec, 0)
			if nul < 0 {
				return opMsgBody{}, errors.New("a document sequence without its identifier")
			}
			s := docSeq{id: string(sec[:nul])}
			for sec = sec[nul+1:]; len(sec) > 0; {
				d, more, err := doc(sec)
				if err != nil {
					return opMsgBody{}, err
				}
				s.docs, sec = append(s.docs, d), more
			}
			m.seqs, b = append(m.seqs, s), rest
		default:
			return opMsgBody{}, fmt.Errorf("an OP_MSG section of kind %d", kind)
		}
	}
	if m.body == nil {
		return opMsgBody{}, errors.New("an OP_MSG without its body")
	}
	return m, nil
}

// doc splits the BSON document at the start of b from the rest.
func doc(b []byte) ([]byte, []byte, error) {
	if len(b) < 5 {
		return nil, nil, errors.New("a document cut short")
	}
	n := int(binary.LittleEndian.Uint32(b))
	if n < 5 || n > len(b) || b[n-1] != 0 {
		return nil, nil, errors.New("a document cut short")
	}
	return b[:n], b[n:], nil
}
