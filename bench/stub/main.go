// Command stub is a benchmark server that does no work: it answers the
// driver's handshake and monitoring, and YCSB's commands (find by _id,
// update, insert, delete), at once from canned replies shaped as the test
// server's (a replica set primary's hello, $clusterTime on every reply, a
// YCSB record of ten 100-byte fields per find). Against it the client is
// the bottleneck, so a client's CPU per operation and its operations per
// CPU second are the client's alone (bench/cores.sh).
//
//	stub -addr 127.0.0.1:0 -records 10000   prints "stub listening on HOST:PORT"
//
// A find without an _id filter (a floor reading the record keys) gets
// every record's _id in one batch. It is not a database: nothing is
// stored, and it must never be pointed at by anything but a benchmark.
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

const (
	opReply      = 1
	opQuery      = 2004
	opMsg        = 2013
	moreToCome   = 1 << 1
	checksumFlag = 1
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	records := flag.Int("records", 10000, "records whose _id a key-reading find returns (user0 ... userN-1)")
	verbose := flag.Bool("v", false, "name each command the stub has no canned reply for, once")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stub:", err)
		os.Exit(1)
	}
	s := newStub(ln.Addr().String(), *records, *verbose)
	fmt.Println("stub listening on", ln.Addr().String())
	for {
		c, err := ln.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, "stub:", err)
			os.Exit(1)
		}
		go s.serve(c)
	}
}

type stub struct {
	hello   bsoncore.Document // without connectionId
	record  []byte            // the ten fields of a record, no _id
	keys    bsoncore.Document // {cursor: {firstBatch: [{_id}...], id: 0, ns}, ok: 1}
	tail    []byte            // ok, $clusterTime, operationTime: every reply's end
	records int64
	verbose bool
	seen    sync.Map
	conns   int32
	mu      sync.Mutex
}

func newStub(addr string, records int, verbose bool) *stub {
	s := &stub{verbose: verbose, records: int64(records)}
	ts := bson.Timestamp{T: uint32(time.Now().Unix()), I: 1}
	t := bsoncore.AppendDoubleElement(nil, "ok", 1)
	ci, t := bsoncore.AppendDocumentElementStart(t, "$clusterTime")
	t = bsoncore.AppendTimestampElement(t, "clusterTime", ts.T, ts.I)
	si, t := bsoncore.AppendDocumentElementStart(t, "signature")
	t = bsoncore.AppendBinaryElement(t, "hash", 0, make([]byte, 20))
	t = bsoncore.AppendInt64Element(t, "keyId", 0)
	t, _ = bsoncore.AppendDocumentEnd(t, si)
	t, _ = bsoncore.AppendDocumentEnd(t, ci)
	s.tail = bsoncore.AppendTimestampElement(t, "operationTime", ts.T, ts.I)

	h := bsoncore.NewDocumentBuilder().
		AppendArray("hosts", bsoncore.NewArrayBuilder().AppendString(addr).Build()).
		AppendString("setName", "stub").AppendInt32("setVersion", 1).
		AppendBoolean("isWritablePrimary", true).AppendBoolean("ismaster", true).AppendBoolean("secondary", false).
		AppendString("primary", addr).AppendString("me", addr).
		AppendObjectID("electionId", bson.ObjectID{0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 1}).
		AppendInt32("maxBsonObjectSize", 16777216).AppendInt32("maxMessageSizeBytes", 48000000).
		AppendInt32("maxWriteBatchSize", 100000).AppendInt32("logicalSessionTimeoutMinutes", 30).
		AppendInt32("minWireVersion", 0).AppendInt32("maxWireVersion", 27).AppendBoolean("readOnly", false).
		AppendBoolean("helloOk", true).Build()
	s.hello = h[4 : len(h)-1]

	val := make([]byte, 100)
	for i := range val {
		val[i] = byte(' ' + i%95)
	}
	for i := range 10 {
		s.record = bsoncore.AppendBinaryElement(s.record, "field"+strconv.Itoa(i), 0, val)
	}

	ki, k := bsoncore.AppendDocumentStart(nil)
	ci, k = bsoncore.AppendDocumentElementStart(k, "cursor")
	ai, k := bsoncore.AppendArrayElementStart(k, "firstBatch")
	for i := range records {
		di, d := bsoncore.AppendDocumentElementStart(k, strconv.Itoa(i))
		d = bsoncore.AppendStringElement(d, "_id", "user"+strconv.Itoa(i))
		k, _ = bsoncore.AppendDocumentEnd(d, di)
	}
	k, _ = bsoncore.AppendArrayEnd(k, ai)
	k = bsoncore.AppendInt64Element(k, "id", 0)
	k = bsoncore.AppendStringElement(k, "ns", "ycsb.usertable")
	k, _ = bsoncore.AppendDocumentEnd(k, ci)
	k = append(k, s.tail...)
	s.keys, _ = bsoncore.AppendDocumentEnd(k, ki)
	return s
}

// conn is one client connection's buffers, reused for every message.
type conn struct {
	r   *bufio.Reader
	w   net.Conn
	in  []byte
	out []byte
	id  int32
}

func (s *stub) serve(nc net.Conn) {
	defer nc.Close()
	s.mu.Lock()
	s.conns++
	id := s.conns
	s.mu.Unlock()
	c := &conn{r: bufio.NewReaderSize(nc, 64<<10), w: nc, in: make([]byte, 4096), id: id}
	for {
		if err := s.one(c); err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) && s.verbose {
				fmt.Fprintln(os.Stderr, "stub: connection", id, err)
			}
			return
		}
	}
}

// one reads a message and writes its reply.
func (s *stub) one(c *conn) error {
	if _, err := io.ReadFull(c.r, c.in[:16]); err != nil {
		return err
	}
	n := int(binary.LittleEndian.Uint32(c.in))
	if n < 16 || n > 48000000 {
		return fmt.Errorf("bad message length %d", n)
	}
	if cap(c.in) < n {
		c.in = append(c.in[:16], make([]byte, n-16)...)
	}
	c.in = c.in[:n]
	if _, err := io.ReadFull(c.r, c.in[16:]); err != nil {
		return err
	}
	reqID := binary.LittleEndian.Uint32(c.in[4:])
	switch op := binary.LittleEndian.Uint32(c.in[12:]); op {
	case opQuery:
		return s.query(c, reqID)
	case opMsg:
		return s.msg(c, reqID)
	default:
		return fmt.Errorf("opcode %d not served", op)
	}
}

// query answers the legacy OP_QUERY handshake (hello/isMaster) with OP_REPLY.
func (s *stub) query(c *conn, reqID uint32) error {
	b := c.in[20:]
	for len(b) > 0 && b[0] != 0 { // fullCollectionName
		b = b[1:]
	}
	if len(b) < 9 {
		return errors.New("short OP_QUERY")
	}
	out := append(c.out[:0], make([]byte, 36)...)
	out = s.helloReply(out, c.id)
	binary.LittleEndian.PutUint32(out[12:], opReply)
	binary.LittleEndian.PutUint32(out[32:], 1) // numberReturned
	return c.send(out, reqID)
}

func (s *stub) helloReply(out []byte, id int32) []byte {
	di, out := bsoncore.AppendDocumentStart(out)
	out = append(out, s.hello...)
	out = bsoncore.AppendDateTimeElement(out, "localTime", time.Now().UnixMilli())
	out = bsoncore.AppendInt32Element(out, "connectionId", id)
	out = append(out, s.tail...)
	out, _ = bsoncore.AppendDocumentEnd(out, di)
	return out
}

func (c *conn) send(out []byte, reqID uint32) error {
	binary.LittleEndian.PutUint32(out, uint32(len(out)))
	binary.LittleEndian.PutUint32(out[4:], reqID+1<<30)
	binary.LittleEndian.PutUint32(out[8:], reqID)
	c.out = out
	_, err := c.w.Write(out)
	return err
}

// msg answers an OP_MSG command from its name.
func (s *stub) msg(c *conn, reqID uint32) error {
	flags := binary.LittleEndian.Uint32(c.in[16:])
	end := len(c.in)
	if flags&checksumFlag != 0 {
		end -= 4
	}
	var body bsoncore.Document
	var seq int64 // documents in kind-1 sections (inserts, updates, deletes)
	for b := c.in[20:end]; len(b) > 0; {
		kind := b[0]
		b = b[1:]
		l, _, ok := bsoncore.ReadLength(b)
		if !ok || int(l) > len(b) || l < 5 {
			return errors.New("bad OP_MSG section")
		}
		if kind == 0 {
			body = b[:l]
		} else {
			sec := b[4:l]
			for len(sec) > 0 && sec[0] != 0 { // identifier
				sec = sec[1:]
			}
			for sec = sec[1:]; len(sec) > 4; seq++ {
				dl, _, _ := bsoncore.ReadLength(sec)
				if dl < 5 || int(dl) > len(sec) {
					break
				}
				sec = sec[dl:]
			}
		}
		b = b[l:]
	}
	if body == nil {
		return errors.New("OP_MSG without a body")
	}
	first, err := body.IndexErr(0)
	if err != nil {
		return err
	}
	out := append(c.out[:0], make([]byte, 21)...)
	binary.LittleEndian.PutUint32(out[12:], opMsg)
	binary.LittleEndian.PutUint32(out[16:], 0)
	out[20] = 0
	out = s.reply(out, first.Key(), body, seq, c.id)
	if flags&moreToCome != 0 {
		c.out = out
		return nil
	}
	return c.send(out, reqID)
}

// reply appends the canned reply to the command name.
func (s *stub) reply(out []byte, name string, body bsoncore.Document, seq int64, id int32) []byte {
	switch name {
	case "hello", "isMaster", "ismaster":
		return s.helloReply(out, id)
	case "find":
		idv, err := body.LookupErr("filter", "_id")
		if err != nil {
			return append(out, s.keys...)
		}
		out, open := openCursor(out, "firstBatch")
		// A record for a key; nothing for an operator ({$in: ...}: a
		// probe for keys past the records, mongoload's keysHeld).
		if idv.Type != bsoncore.TypeEmbeddedDocument {
			ri, r := bsoncore.AppendDocumentElementStart(out, "0")
			r = bsoncore.AppendValueElement(r, "_id", idv)
			r = append(r, s.record...)
			out, _ = bsoncore.AppendDocumentEnd(r, ri)
		}
		return s.closeCursor(out, open)
	case "count":
		di, out := bsoncore.AppendDocumentStart(out)
		out = bsoncore.AppendInt64Element(out, "n", s.records)
		out = append(out, s.tail...)
		out, _ = bsoncore.AppendDocumentEnd(out, di)
		return out
	case "update", "insert", "delete":
		n := seq
		if n == 0 {
			for _, k := range []string{"updates", "documents", "deletes"} {
				if arr, ok := body.Lookup(k).ArrayOK(); ok {
					vals, _ := arr.Values()
					n = int64(len(vals))
				}
			}
		}
		di, out := bsoncore.AppendDocumentStart(out)
		out = bsoncore.AppendInt32Element(out, "n", int32(n))
		if name == "update" {
			out = bsoncore.AppendInt32Element(out, "nModified", int32(n))
		}
		out = append(out, s.tail...)
		out, _ = bsoncore.AppendDocumentEnd(out, di)
		return out
	case "aggregate", "listIndexes", "listCollections", "getMore":
		batch := "firstBatch"
		if name == "getMore" {
			batch = "nextBatch"
		}
		out, open := openCursor(out, batch)
		if name == "listCollections" { // the one collection there is
			ri, r := bsoncore.AppendDocumentElementStart(out, "0")
			r = bsoncore.AppendStringElement(r, "name", "usertable")
			r = bsoncore.AppendStringElement(r, "type", "collection")
			oi, r := bsoncore.AppendDocumentElementStart(r, "options")
			r, _ = bsoncore.AppendDocumentEnd(r, oi)
			out, _ = bsoncore.AppendDocumentEnd(r, ri)
		}
		if name == "aggregate" { // countDocuments: {_id: 1, n: records}
			ri, r := bsoncore.AppendDocumentElementStart(out, "0")
			r = bsoncore.AppendInt32Element(r, "_id", 1)
			r = bsoncore.AppendInt64Element(r, "n", s.records)
			out, _ = bsoncore.AppendDocumentEnd(r, ri)
		}
		return s.closeCursor(out, open)
	}
	if _, loaded := s.seen.LoadOrStore(name, true); !loaded && s.verbose {
		fmt.Fprintln(os.Stderr, "stub: answering", name, "with ok: 1 alone")
	}
	di, out := bsoncore.AppendDocumentStart(out)
	out = append(out, s.tail...)
	out, _ = bsoncore.AppendDocumentEnd(out, di)
	return out
}

// cursorStarts are where a cursor reply's reply document, cursor document
// and batch array start, for closeCursor to end them.
type cursorStarts struct{ reply, cursor, batch int32 }

// openCursor starts every cursor reply (find, aggregate, listIndexes,
// listCollections, getMore): {cursor: {<batch>: [ ; the caller appends the
// batch's documents, "0" first, and closeCursor ends it.
func openCursor(out []byte, batch string) ([]byte, cursorStarts) {
	var at cursorStarts
	at.reply, out = bsoncore.AppendDocumentStart(out)
	at.cursor, out = bsoncore.AppendDocumentElementStart(out, "cursor")
	at.batch, out = bsoncore.AppendArrayElementStart(out, batch)
	return out, at
}

// closeCursor ends a reply openCursor began: ], id: 0 (nothing left to
// fetch), ns}, then ok: 1 and the rest every reply carries.
func (s *stub) closeCursor(out []byte, at cursorStarts) []byte {
	out, _ = bsoncore.AppendArrayEnd(out, at.batch)
	out = bsoncore.AppendInt64Element(out, "id", 0)
	out = bsoncore.AppendStringElement(out, "ns", "ycsb.usertable")
	out, _ = bsoncore.AppendDocumentEnd(out, at.cursor)
	out = append(out, s.tail...)
	out, _ = bsoncore.AppendDocumentEnd(out, at.reply)
	return out
}
