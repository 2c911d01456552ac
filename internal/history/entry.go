package history

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/results"
)

// Entry is one result kept in a store: what identifies it, its metrics
// flattened, and the whole result as its file holds it (Doc).
type Entry struct {
	Workload string    `json:"workload"`
	Digest   string    `json:"digest"` // of the workload's definition, run settings left out
	Label    string    `json:"label,omitempty"`
	Time     time.Time `json:"time"`
	Host     string    `json:"host,omitempty"`    // where mongoload ran
	Version  string    `json:"version,omitempty"` // the target's server version ("noop" for --target noop)
	Schema   string    `json:"schema"`
	// Metrics are the figures the series are made of (metric names:
	// metrics.go).
	Metrics map[string]float64 `json:"metrics"`
	Doc     json.RawMessage    `json:"-"`
}

// ErrSchema is a stored document of a schema this mongoload cannot read.
var ErrSchema = errors.New("not a result this mongoload reads")

// Encode is doc as its file holds it: indented JSON with its schema, the
// bytes results.Write* write.
func Encode(doc any) ([]byte, error) {
	var v any
	switch d := doc.(type) {
	case *results.Result:
		c := *d
		c.Schema = results.Schema
		v = &c
	case *results.Sweep:
		c := *d
		c.Schema = results.SweepSchema
		v = &c
	case *results.FindMax:
		c := *d
		c.Schema = results.FindMaxSchema
		v = &c
	case *results.AB:
		c := *d
		c.Schema = results.ABSchema
		v = &c
	default:
		return nil, fmt.Errorf("history: %T is not a result", doc)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	return append(b, '\n'), err
}

// NewEntry reads the entry of a result's file bytes; host is where it ran.
func NewEntry(doc []byte, host string) (Entry, error) {
	var head struct {
		Schema    string           `json:"schema"`
		Label     string           `json:"label"`
		Workload  results.Workload `json:"workload"`
		StartedAt time.Time        `json:"startedAt"`
		Config    json.RawMessage  `json:"config"`
	}
	if err := json.Unmarshal(doc, &head); err != nil {
		return Entry{}, fmt.Errorf("%w: not JSON (%v)", ErrSchema, err)
	}
	e := Entry{Workload: head.Workload.Name, Label: head.Label, Time: head.StartedAt, Host: host, Schema: head.Schema, Doc: doc}
	var err error
	switch head.Schema {
	case results.Schema:
		var r results.Result
		if err = json.Unmarshal(doc, &r); err == nil {
			e.Metrics, e.Version = resultMetrics(&r), versionOf(&r)
		}
	case results.SweepSchema:
		var sw results.Sweep
		if err = json.Unmarshal(doc, &sw); err == nil {
			e.Metrics = sweepMetrics(&sw)
			e.Time = sw.StartedAt
			if len(sw.Steps) > 0 && sw.Steps[0].Result != nil {
				e.Version, head.Config = versionOf(sw.Steps[0].Result), sw.Steps[0].Result.Config
			}
		}
	case results.FindMaxSchema:
		var f results.FindMax
		if err = json.Unmarshal(doc, &f); err == nil {
			e.Metrics = map[string]float64{MaxRate: f.MaxRate}
			e.Time = f.StartedAt
			if len(f.Probes) > 0 && f.Probes[0].Result != nil {
				e.Version, head.Config = versionOf(f.Probes[0].Result), f.Probes[0].Result.Config
			}
		}
	case results.ABSchema:
		var ab results.AB
		if err = json.Unmarshal(doc, &ab); err == nil {
			if r := ab.SideResult("B"); r != nil { // the candidate's figures: the build under test
				e.Metrics, e.Version, head.Config = resultMetrics(r), versionOf(r), r.Config
			}
		}
	case "":
		return Entry{}, fmt.Errorf("%w: no \"schema\" field", ErrSchema)
	default:
		return Entry{}, fmt.Errorf("%w: schema %q (this mongoload reads %s, %s, %s and %s)", ErrSchema, head.Schema,
			results.Schema, results.SweepSchema, results.FindMaxSchema, results.ABSchema)
	}
	if err != nil {
		return Entry{}, fmt.Errorf("%w: %s does not have its shape (%v)", ErrSchema, head.Schema, err)
	}
	e.Digest = digest(head.Workload, head.Config)
	return e, nil
}

// versionOf is the target's version: the server's, or "noop".
func versionOf(r *results.Result) string {
	if r.Context != nil && r.Context.Version != "" {
		return r.Context.Version
	}
	var c struct {
		Run struct {
			Target string `json:"target"`
		} `json:"run"`
	}
	if json.Unmarshal(r.Config, &c) == nil && c.Run.Target != "" {
		return c.Run.Target
	}
	return ""
}

// digest identifies the workload's definition: its effective configuration
// without the run's and the connection's settings (a build's rate, label
// or target do not make it another workload), so two results of one
// digest ran the same operations on the same collections.
func digest(w results.Workload, config json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(config, &m) != nil {
		m = map[string]json.RawMessage{}
	}
	delete(m, "run")
	delete(m, "connection")
	b, _ := json.Marshal(m) // map keys sorted: the digest does not depend on the file's order
	h := sha256.Sum256(append([]byte(w.Name+"\x00"), b...))
	return hex.EncodeToString(h[:6])
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// safe is a name usable in a metric's name and a file name.
func safe(s string) string { return strings.Trim(unsafeName.ReplaceAllString(s, "_"), "_") }
