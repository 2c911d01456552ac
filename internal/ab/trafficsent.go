package ab

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/replay"
	"github.com/mongoload/mongoload/internal/results"
)

// trafficsent.go: what of the traffic is sent to the copies, and what the
// file says of it. The copies stay the copies: a write replayed on a
// restored copy changes it, and the next round would run on changed data
// (an insert's _id twice). So reads are sent, writes only when asked and
// then each in a transaction that is aborted, and commands that are no
// read or write of data (DDL, admin) never.

// Why a command of the trace is not sent by ab (after its kind).
const (
	WhyWrite         = "writes are not sent, so that every round runs on the same data and the copies stay as they were (--writes aborted sends each in a transaction that is aborted)"
	WhyWritingAgg    = "aggregations that write ($out, $merge) are never sent: they would change the copies, and cannot run in a transaction"
	WhyNotData       = "commands that neither read nor write the application's documents (DDL, admin) are never sent by ab"
	abortedNote      = "writes are sent each in a transaction of its own that is then aborted: the server finds the documents, takes their locks and checks the indexes, and keeps nothing. Their latency includes starting the transaction and the abort (one more round trip), so compare them between the sides, not with the application's; two writes of one document in flight at once may fail with a write conflict, on either side"
	recordingLacksID = "a MongoDB traffic recording names no deployment: nothing can refuse to replay it on the deployment it was recorded on, and it says nothing of what it missed (a recording stopped when its buffer filled reads as complete)"
)

// readCommands are sent as they are: they read and change nothing.
var readCommands = map[string]bool{"find": true, "count": true, "distinct": true, "aggregate": true}

// writeCommands are sent only in aborted transactions (--writes aborted).
var writeCommands = map[string]bool{"insert": true, "update": true, "delete": true, "findAndModify": true, "findandmodify": true}

// keepFor is what ab sends of a trace: its reads, its writes when writes
// is WritesAborted, nothing else; each reason is counted by the command's
// kind ("update: writes are not sent ...").
func keepFor(writes string) replay.Keep {
	return func(cmd bson.Raw) string {
		name := commandName(cmd)
		switch {
		case name == "aggregate" && writesOut(cmd):
			return name + ": " + WhyWritingAgg
		case readCommands[name]:
			return ""
		case writeCommands[name]:
			if writes == WritesAborted {
				return ""
			}
			return name + ": " + WhyWrite
		}
		return name + ": " + WhyNotData
	}
}

func commandName(cmd bson.Raw) string {
	els, err := cmd.Elements()
	if err != nil || len(els) == 0 {
		return ""
	}
	return els[0].Key()
}

// writesOut reports whether an aggregate's pipeline writes ($out, $merge).
func writesOut(cmd bson.Raw) bool {
	arr, _ := cmd.Lookup("pipeline").ArrayOK()
	vals, _ := arr.Values()
	for _, v := range vals {
		if st, ok := v.DocumentOK(); ok {
			if st.Lookup("$out").Type != 0 || st.Lookup("$merge").Type != 0 {
				return true
			}
		}
	}
	return false
}

// trafficSection is the file's account of the traffic.
func trafficSection(t *replay.Trace, tr Traffic, pace replay.Pace) *results.ABTraffic {
	s := &results.ABTraffic{File: tr.Path, Format: "mongoload trace", Speed: pace.SpeedText(), Writes: tr.Writes,
		Entries: t.Entries, Sent: t.Sent, Damage: t.Damage.String(), Source: t.Source()}
	if t.IsRecording() {
		s.Format = "MongoDB traffic recording"
	}
	if len(t.NotSent()) > 0 {
		s.NotSent = t.NotSent()
	}
	s.Complete, s.Coverage = t.Coverage()
	return s
}

// trafficNotes are the notes on the traffic itself: what it lacks, what
// did not read, what was not sent and why.
func trafficNotes(t *replay.Trace, tr Traffic) []string {
	var notes []string
	if t.IsRecording() {
		notes = append(notes, recordingLacksID)
	} else if ok, cov := t.Coverage(); !ok {
		notes = append(notes, "the trace is a sample of what the application sent, not all of it: "+cov)
	}
	if d := t.Damage.String(); d != "" {
		notes = append(notes, "the trace did not read whole: "+d+"; what read was compared")
	}
	if ns := t.NotSent(); len(ns) > 0 {
		var parts []string
		for _, why := range slices.Sorted(maps.Keys(ns)) {
			parts = append(parts, fmt.Sprintf("%s %s", results.Thousands(ns[why]), why))
		}
		notes = append(notes, fmt.Sprintf("not sent (of %s entries, %s sent in each round): %s", results.Thousands(t.Entries), results.Thousands(t.Sent), strings.Join(parts, "; ")))
	}
	if tr.Writes == WritesAborted {
		notes = append(notes, abortedNote)
	}
	return notes
}

// forgiveConflicts unflags a shape whose only errors on one side are write
// conflicts between aborted transactions (chance, on either side).
func forgiveConflicts(o *results.ABOperation, m results.ABMethod) {
	if o.ErrorsOnlyOn == "" {
		return
	}
	side := o.ResultB
	if o.ErrorsOnlyOn == "A" {
		side = o.ResultA
	}
	for c := range side.ErrorsByClass {
		if !strings.HasPrefix(c, "WriteConflict") {
			return
		}
	}
	if o.ErrorsOnlyOn == "B" && o.Flag == results.FlagRegression && !(o.Shift >= 1+m.Threshold && o.P < m.Alpha) {
		o.Flag = results.FlagNone // flagged for its errors alone, not its latency
	}
	o.Why = fmt.Sprintf("write conflicts on %s only (%s): concurrent aborted transactions on one document, by chance; not judged", o.ErrorsOnlyOn, classes(side.ErrorsByClass))
	o.ErrorsOnlyOn = ""
}

// discard is an io.Writer that keeps nothing.
type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }
