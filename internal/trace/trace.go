// Package trace is mongoload's file of captured operations (capture
// --trace, read by replay): every operation a capture read, in the order
// they started on the source, each with its namespace, its command as the
// source recorded it (literals included), its start, its duration and its
// connection.
//
// The file is a stream of frames, so that neither writing nor reading
// holds more than one frame in memory (a week of logs does not fit):
//
//	"mongoload-trace\n"                       the magic, once
//	frame*                                    a header, entry frames, a trailer
//	frame = "MLTF" kind:1 count:4 raw:4 size:4 crc:4 data:size
//
// kind is 'H' (the header), 'E' (count entries) or 'T' (the trailer);
// data is the frame's BSON documents, deflated; crc is CRC-32 (IEEE) of
// data. A damaged frame is skipped (its count, when its head reads, is
// counted as lost) and reading resumes at the next frame's magic; a file
// cut short keeps every whole frame before the cut.
package trace

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Version is the format's version: the header's "version". A reader
// refuses a later one by name.
const Version = 1

const (
	magic      = "mongoload-trace\n"
	frameMagic = "MLTF"
	headSize   = 4 + 1 + 4*4
	kindHeader = 'H'
	kindEntry  = 'E'
	kindEnd    = 'T'
	// maxFrame bounds a frame's sizes, so that a damaged head cannot ask
	// for gigabytes.
	maxFrame = 64 << 20
)

// Entry is one captured operation.
type Entry struct {
	Start time.Time     // when it started on the source: its ts (or log t) less its duration
	Dur   time.Duration // how long it took on the source
	NS    string        // db.collection
	Op    string        // the source's type: query, insert, update, remove, command, getmore
	Cmd   bson.Raw      // the command (an update or delete: its statement) as the source recorded it
	Conn  string        // the connection or client, where the source names one
	App   string        // the client's appName, where the source names one
	Shape string        // the shape capture grouped it under (capture.ShapeOf)

	seq uint64 // the writer's arrival order, among entries that start together
}

// Header opens a trace.
type Header struct {
	Version   int       `bson:"version"`
	Created   time.Time `bson:"created"`
	Tool      string    `bson:"tool"`
	Databases []string  `bson:"databases,omitempty"`
	// CapturedFrom identifies the source deployment (mongodb.Deployment)
	// at the start of the file, so that a trace cut short, without its
	// trailer, still names the deployment a replay must not write into.
	CapturedFrom []string `bson:"capturedFrom,omitempty"`
}

// Trailer closes a trace: what the capture's sources recorded, so that a
// replay can say whether it replays every operation or a sample of them.
type Trailer struct {
	Entries int64    `bson:"entries"`
	Sources []Source `bson:"sources"`
	// Late counts entries that arrived after later-starting ones had been
	// written (an operation longer than the writer's reordering window):
	// they are in the file, out of order.
	Late int64 `bson:"late"`
	// Names maps each shape (Entry.Shape) to the name the capture's
	// workload file gives its operation.
	Names map[string]string `bson:"names,omitempty"`
	// CapturedFrom identifies the source deployment (mongodb.Deployment),
	// for the check that refuses to replay writes into it; the header's
	// says the same from the start (traces written before it was there
	// name it only here).
	CapturedFrom []string `bson:"capturedFrom,omitempty"`
}

// Source is one source a capture read.
type Source struct {
	Name     string    `bson:"name"`
	Complete bool      `bson:"complete"` // every operation of the window was recorded
	Why      string    `bson:"why"`
	Sampling float64   `bson:"sampling"` // the profiler's sampleRate (1: all)
	From     time.Time `bson:"from"`
	To       time.Time `bson:"to"`
	Read     int64     `bson:"read"` // entries the source held
	Used     int64     `bson:"used"` // entries that became operations
}

// The fields of an entry's document.
const (
	fStart = "s"  // int64, unix microseconds
	fDur   = "d"  // int64, microseconds
	fNS    = "ns" // string
	fOp    = "op"
	fCmd   = "c" // document
	fConn  = "cn"
	fApp   = "a"
	fShape = "sh"
)
