package client

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"

	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// opMsg is the wire protocol's OP_MSG opcode; header is the message header
// (length, requestID, responseTo, opCode) and the flag bits, and kind 0 is
// the one body section every message here carries.
const (
	opMsg       = 2013
	header      = 16 + 4
	kindBody    = 0
	kindSection = 1        // a document sequence, as the driver sends a write's documents
	maxMessage  = 48 << 20 // the server's maxMessageSizeBytes
)

// wire is one connection speaking OP_MSG with nothing in between: each
// command is appended into a buffer the connection reuses, written with
// one write and its reply read into another reused buffer. Like the
// driver's implicit sessions, every command carries this connection's
// lsid, and every retryable write (insert, single-document update and
// delete) the next txnNumber.
type wire struct {
	conn net.Conn
	r    *bufio.Reader
	db   []byte
	coll string
	out  []byte
	one  []byte // an update or delete statement
	in   []byte
	id   int32
	lsid [16]byte
	txn  int64
}

// dialWire connects to addr (host:port) for db.coll.
func dialWire(addr, db, coll string) (*wire, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	w := &wire{conn: c, r: bufio.NewReaderSize(c, 16<<10), db: []byte(db), coll: coll, out: make([]byte, 0, 1<<10)}
	if _, err := rand.Read(w.lsid[:]); err != nil {
		return nil, err
	}
	w.lsid[6], w.lsid[8] = w.lsid[6]&0x0f|0x40, w.lsid[8]&0x3f|0x80 // a version 4 UUID, as the driver's
	return w, nil
}

// start begins a command document named name on the collection.
func (w *wire) start(name string) (int32, []byte) {
	b := append(w.out[:0], make([]byte, header+1)...)
	i, b := bsoncore.AppendDocumentStart(b)
	return i, bsoncore.AppendStringElement(b, name, w.coll)
}

// send ends the command (lsid, txnNumber for a retryable write, $db),
// sends it and reads the reply: its body, valid until the next command.
func (w *wire) send(i int32, b []byte, retryableWrite bool) (bsoncore.Document, error) {
	return w.sendWith(i, b, retryableWrite, "", nil)
}

// sendWith is send with the documents of a write (insert's documents,
// update's updates, delete's deletes) in a document sequence after the
// body, as the driver sends them; the body then leaves them out.
func (w *wire) sendWith(i int32, b []byte, retryableWrite bool, name string, docs [][]byte) (bsoncore.Document, error) {
	if retryableWrite {
		w.txn++
		b = bsoncore.AppendInt64Element(b, "txnNumber", w.txn)
	}
	s, b := bsoncore.AppendDocumentElementStart(b, "lsid")
	b = bsoncore.AppendBinaryElement(b, "id", 4, w.lsid[:])
	b, _ = bsoncore.AppendDocumentEnd(b, s)
	b = bsoncore.AppendHeader(b, bsoncore.TypeString, "$db")
	b = bsoncore.AppendInt32(b, int32(len(w.db)+1))
	b = append(append(b, w.db...), 0)
	b, _ = bsoncore.AppendDocumentEnd(b, i)
	if name != "" {
		s := len(b)
		b = append(append(b, kindSection, 0, 0, 0, 0), name...)
		b = append(b, 0)
		for _, d := range docs {
			b = append(b, d...)
		}
		binary.LittleEndian.PutUint32(b[s+1:], uint32(len(b)-s-1))
	}
	w.id++
	binary.LittleEndian.PutUint32(b[0:], uint32(len(b)))
	binary.LittleEndian.PutUint32(b[4:], uint32(w.id))
	binary.LittleEndian.PutUint32(b[8:], 0)
	binary.LittleEndian.PutUint32(b[12:], opMsg)
	binary.LittleEndian.PutUint32(b[16:], 0)
	b[header] = kindBody
	w.out = b
	if _, err := w.conn.Write(b); err != nil {
		return nil, err
	}
	return w.reply()
}

// reply reads one OP_MSG reply and returns its body, or the server's error.
func (w *wire) reply() (bsoncore.Document, error) {
	var head [4]byte
	if _, err := io.ReadFull(w.r, head[:]); err != nil {
		return nil, err
	}
	n := int(binary.LittleEndian.Uint32(head[:]))
	if n < header+1+5 || n > maxMessage {
		return nil, fmt.Errorf("wire: a reply of %d bytes", n)
	}
	if cap(w.in) < n {
		w.in = make([]byte, n)
	}
	w.in = w.in[:n]
	copy(w.in, head[:])
	if _, err := io.ReadFull(w.r, w.in[4:]); err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint32(w.in[12:]) != opMsg || w.in[header] != kindBody {
		return nil, errors.New("wire: not an OP_MSG reply with a body")
	}
	body := bsoncore.Document(w.in[header+1:])
	if ok, _ := body.Lookup("ok").AsFloat64OK(); ok != 1 {
		return nil, fmt.Errorf("server error: %s", body.Lookup("errmsg").StringValue())
	}
	if _, has := body.Lookup("writeErrors").ArrayOK(); has {
		return nil, fmt.Errorf("write error: %s", body.Lookup("writeErrors"))
	}
	return body, nil
}

// drain reads a cursor's every batch: getMore until the server says the
// cursor is exhausted, as the driver's cursor does when it is iterated to
// the end.
func (w *wire) drain(reply bsoncore.Document) error {
	for {
		id := reply.Lookup("cursor", "id").Int64()
		if id == 0 {
			return nil
		}
		i, b := bsoncore.AppendDocumentStart(append(w.out[:0], make([]byte, header+1)...))
		b = bsoncore.AppendInt64Element(b, "getMore", id)
		b = bsoncore.AppendStringElement(b, "collection", w.coll)
		var err error
		if reply, err = w.send(i, b, false); err != nil {
			return err
		}
	}
}

func (w *wire) Close() error { return w.conn.Close() }
