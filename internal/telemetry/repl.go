package telemetry

import (
	"fmt"
	"math"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// Member is one replica set member as replSetGetStatus reports it.
type Member struct {
	Name  string
	State string // stateStr: PRIMARY, SECONDARY, ARBITER, ...
	// Optime is the member's optimeDate; zero if it reports none (arbiters).
	Optime time.Time
}

// ParseRepl reads the members of a replSetGetStatus reply.
func ParseRepl(doc bson.Raw) ([]Member, error) {
	if err := doc.Validate(); err != nil {
		return nil, fmt.Errorf("replSetGetStatus reply: %w", err)
	}
	arr, ok := doc.Lookup("members").ArrayOK()
	if !ok {
		return nil, fmt.Errorf("replSetGetStatus reply has no members array")
	}
	vals, err := arr.Values()
	if err != nil {
		return nil, fmt.Errorf("replSetGetStatus members: %w", err)
	}
	members := make([]Member, 0, len(vals))
	for _, v := range vals {
		d, ok := v.DocumentOK()
		if !ok {
			continue
		}
		m := Member{}
		m.Name, _ = d.Lookup("name").StringValueOK()
		m.State, _ = d.Lookup("stateStr").StringValueOK()
		if t, ok := d.Lookup("optimeDate").TimeOK(); ok {
			m.Optime = t
		}
		members = append(members, m)
	}
	return members, nil
}

// Lags returns each secondary's replication lag: the primary's optimeDate
// minus the member's. Members other than secondaries (arbiters, members in
// recovery, the primary itself) are left out; a secondary without an
// optime, or a set whose primary is not in view, gets an absent lag. It
// returns nil when there are no secondaries, where lag does not exist.
func Lags(members []Member) []results.MemberLag {
	var primary *Member
	for i := range members {
		if members[i].State == "PRIMARY" {
			primary = &members[i]
		}
	}
	var out []results.MemberLag
	for _, m := range members {
		if m.State != "SECONDARY" {
			continue
		}
		l := results.MemberLag{Name: m.Name, State: m.State}
		if primary != nil && !primary.Optime.IsZero() && !m.Optime.IsZero() {
			s := math.Round(primary.Optime.Sub(m.Optime).Seconds()*1000) / 1000
			l.LagSeconds = &s
		}
		out = append(out, l)
	}
	return out
}
