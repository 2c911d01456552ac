package results

import (
	"net/url"
	"strings"
	"time"
)

// Server is what the server itself reported during the measured phase:
// serverStatus (and replSetGetStatus where the server has it) sampled every
// interval over a connection of its own, as deltas per interval.
// docs/telemetry.md describes every field and where it comes from.
//
// A field the server did not report is omitted (nil), never 0: Absent names
// the fields that were missing from every sample, so a reader can tell "the
// server does not say" from "nothing happened".
type Server struct {
	Host    string `json:"host,omitempty"`
	Version string `json:"version,omitempty"`
	Process string `json:"process,omitempty"`
	// IntervalSeconds is the sampling interval asked for.
	IntervalSeconds float64 `json:"intervalSeconds"`
	// Absent lists the sample fields, as dotted JSON paths such as
	// "cpu.userSeconds", that no sample carried.
	Absent  []string       `json:"absent,omitempty"`
	Samples []ServerSample `json:"samples"`
	// Opcounters are the deltas from the first sample (taken when the
	// measured phase began) to the last (when it ended).
	Opcounters *Opcounters `json:"opcounters,omitempty"`
	CrossCheck *CrossCheck `json:"crossCheck,omitempty"`
	// Unavailable says why there are no samples, if there are none.
	Unavailable string   `json:"unavailable,omitempty"`
	Notes       []string `json:"notes,omitempty"`
	// CPUSource says where the samples' CPU came from: "serverStatus"
	// (extra_info), or "/proc/PID/stat" when the server reports none but
	// runs on this host; "" when there is none.
	CPUSource string `json:"cpuSource,omitempty"`
	// Restarts counts the server restarts seen between samples (its
	// uptime went back): each may have lost acknowledged writes, which the
	// collections' counts before and after then show (notes).
	Restarts int `json:"restarts,omitempty"`
}

// ServerSample is one sampling interval. Counters (opcounters, opLatencies,
// pages read, network bytes, transactions, CPU) are deltas over the
// interval; gauges (connections, cache bytes, tickets, lag) are the values at
// its end.
type ServerSample struct {
	T  float64 `json:"t"`  // seconds since the measured phase began, at the sample
	Dt float64 `json:"dt"` // seconds since the previous sample
	// At is the client's clock when the sample was taken.
	At           time.Time     `json:"at"`
	Opcounters   *Opcounters   `json:"opcounters,omitempty"`
	OpLatencies  *OpLatencies  `json:"opLatencies,omitempty"`
	Connections  *Connections  `json:"connections,omitempty"`
	Cache        *Cache        `json:"cache,omitempty"`
	Tickets      *Tickets      `json:"tickets,omitempty"`
	Network      *Network      `json:"network,omitempty"`
	Transactions *Transactions `json:"transactions,omitempty"`
	CPU          *CPU          `json:"cpu,omitempty"`
	// Replication has one entry per secondary, with its lag behind the
	// primary; nil on a standalone server or a set without secondaries.
	Replication []MemberLag `json:"replication,omitempty"`
}

// Opcounters are serverStatus.opcounters deltas: operations the server
// counted by type. How client operations map onto them is in
// docs/telemetry.md.
type Opcounters struct {
	Insert  *int64 `json:"insert,omitempty"`
	Query   *int64 `json:"query,omitempty"`
	Update  *int64 `json:"update,omitempty"`
	Delete  *int64 `json:"delete,omitempty"`
	Getmore *int64 `json:"getmore,omitempty"`
	Command *int64 `json:"command,omitempty"`
}

// OpLatencies are serverStatus.opLatencies deltas per class.
type OpLatencies struct {
	Reads        *LatencyClass `json:"reads,omitempty"`
	Writes       *LatencyClass `json:"writes,omitempty"`
	Commands     *LatencyClass `json:"commands,omitempty"`
	Transactions *LatencyClass `json:"transactions,omitempty"`
}

// LatencyClass is one opLatencies class over an interval: the operations
// the server finished and their average latency as the server measured it.
type LatencyClass struct {
	Ops int64 `json:"ops"`
	// AvgMicros is nil when Ops is 0: there is no average of nothing.
	AvgMicros *float64 `json:"avgMicros,omitempty"`
}

// Connections are serverStatus.connections gauges.
type Connections struct {
	Current   *int64 `json:"current,omitempty"`
	Available *int64 `json:"available,omitempty"`
}

// Cache is the WiredTiger cache: gauges in bytes, and pages read into the
// cache during the interval (reads that missed the cache).
type Cache struct {
	BytesInUse         *int64 `json:"bytesInUse,omitempty"`
	DirtyBytes         *int64 `json:"dirtyBytes,omitempty"`
	MaxBytes           *int64 `json:"maxBytes,omitempty"`
	PagesReadIntoCache *int64 `json:"pagesReadIntoCache,omitempty"`
}

// Tickets are the storage engine's available read and write tickets
// (concurrent transactions): at 0, new operations queue.
type Tickets struct {
	ReadAvailable  *int64 `json:"readAvailable,omitempty"`
	WriteAvailable *int64 `json:"writeAvailable,omitempty"`
}

// Network is bytes the server received and sent during the interval.
type Network struct {
	BytesIn  *int64 `json:"bytesIn,omitempty"`
	BytesOut *int64 `json:"bytesOut,omitempty"`
}

// Transactions are multi-document transactions committed and aborted during
// the interval.
type Transactions struct {
	Committed *int64 `json:"committed,omitempty"`
	Aborted   *int64 `json:"aborted,omitempty"`
}

// CPU is the server process's CPU time during the interval, from
// serverStatus.extra_info (user_time_us, system_time_us) where the platform
// reports it.
type CPU struct {
	UserSeconds   *float64 `json:"userSeconds,omitempty"`
	SystemSeconds *float64 `json:"systemSeconds,omitempty"`
}

// Seconds is the server's CPU seconds, user and system, and false when c
// reports neither: the one sum every figure of the server's CPU uses.
func (c *CPU) Seconds() (float64, bool) {
	if c == nil || (c.UserSeconds == nil && c.SystemSeconds == nil) {
		return 0, false
	}
	var t float64
	for _, p := range []*float64{c.UserSeconds, c.SystemSeconds} {
		if p != nil {
			t += *p
		}
	}
	return t, true
}

// MemberLag is one secondary's replication lag: the primary's optimeDate
// minus the member's.
type MemberLag struct {
	Name       string   `json:"name"`
	State      string   `json:"state,omitempty"`
	LagSeconds *float64 `json:"lagSeconds,omitempty"`
}

// CrossCheck sets the server's opcounter deltas over the measured phase
// beside what mongoload's operations should have made it count.
type CrossCheck struct {
	// Model names the counting rules that fit best ("mongod" or
	// "per-command"); docs/telemetry.md lists them.
	Model string          `json:"model"`
	Rows  []CrossCheckRow `json:"rows"`
	// OK is false if any row is flagged.
	OK bool `json:"ok"`
	// WatcherStreams is the connections the watchers' change streams held
	// (their getMores are in the getmore row, their resumes among the
	// operations as aggregates).
	WatcherStreams int `json:"watcherStreams,omitempty"`
}

// CrossCheckRow is one opcounter.
type CrossCheckRow struct {
	Counter string `json:"counter"` // insert, query, update, delete, getmore or command
	// Expected is what mongoload's successful operations count for under
	// Model; Own is mongoload's own commands (the sampler's serverStatus and
	// replSetGetStatus, its connections' handshakes).
	Expected int64 `json:"expected"`
	Own      int64 `json:"own"`
	Server   int64 `json:"server"`
	// Tolerance is how far Server may be from Expected + Own without a flag:
	// operations in flight at the phase's edges, failed operations (which a
	// server may count or not), driver heartbeats.
	Tolerance int64 `json:"tolerance"`
	// Status is "ok", "more" (the server counted more: other clients, or
	// work mongoload does not predict), "fewer" or "info" (not predicted,
	// such as getmore).
	Status string   `json:"status"`
	Ops    []string `json:"ops,omitempty"` // the workload's operations counted here
}

// Merged says which files a merged result was made from.
type Merged struct {
	Sources []MergedSource `json:"sources"`
}

// MergedSource is one input of a merge.
type MergedSource struct {
	File       string    `json:"file"`
	Kind       string    `json:"kind"` // "results" (a JSON results file) or "hlog" (an interval log)
	Label      string    `json:"label,omitempty"`
	Partition  string    `json:"partition,omitempty"`
	StartedAt  time.Time `json:"startedAt"`
	EndedAt    time.Time `json:"endedAt"`
	Operations int64     `json:"operations"`
	Errors     int64     `json:"errors"`
}

// LoopbackHost reports whether every host of a connection URI is a
// loopback address (the server runs on this machine), and the first host.
func LoopbackHost(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Host == "" {
		return "", false
	}
	hosts := strings.Split(u.Host, ",")
	for _, h := range hosts {
		name := h
		if i := strings.LastIndex(h, ":"); i > 0 && !strings.HasSuffix(h, "]") {
			name = h[:i]
		}
		name = strings.Trim(name, "[]")
		if name != "localhost" && !strings.HasPrefix(name, "127.") && name != "::1" {
			return "", false
		}
	}
	return hosts[0], true
}
