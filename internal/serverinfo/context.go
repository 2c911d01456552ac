// Package serverinfo reads the deployment a run meets, so that every result
// records it: the server's version and feature compatibility version, its
// storage engine, cache and compressors, the topology (standalone, replica
// set members, shards and mongos) and the host's cores and memory; and the
// workload's collections' statistics before and after a run.
//
// Everything is read with ordinary commands (buildInfo, getParameter,
// serverStatus, getCmdLineOpts, hello, replSetGetStatus, listShards,
// hostInfo, collStats) through a Commander. A fact that a server does not
// report, or a command it refuses, leaves that fact absent, named in the
// context's Absent list with a note saying why: never a 0.
package serverinfo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/telemetry"
)

// Commander runs a database command and returns the reply as it came;
// internal/mongodb's Client implements it.
type Commander interface {
	Command(ctx context.Context, db string, cmd bson.D) (bson.Raw, error)
}

// CommandTimeout bounds each command.
const CommandTimeout = 5 * time.Second

// gatherer collects one context.
type gatherer struct {
	ctx context.Context
	c   Commander
	out *results.ServerContext
}

// Gather reads the deployment's context. It never fails: what cannot be
// read is absent, with a note.
func Gather(ctx context.Context, c Commander, now time.Time) *results.ServerContext {
	g := &gatherer{ctx: ctx, c: c, out: &results.ServerContext{At: now}}
	g.build()
	g.fcv()
	g.status()
	g.cmdLine()
	g.topology()
	g.host()
	g.absent()
	return g.out
}

// run runs one admin command (or one on db), with the timeout.
func (g *gatherer) run(db string, cmd bson.D) (bson.Raw, error) {
	ctx, cancel := context.WithTimeout(g.ctx, CommandTimeout)
	defer cancel()
	return g.c.Command(ctx, db, cmd)
}

func (g *gatherer) note(format string, args ...any) {
	g.out.Notes = append(g.out.Notes, fmt.Sprintf(format, args...))
}

func (g *gatherer) build() {
	raw, err := g.run("admin", bson.D{{Key: "buildInfo", Value: 1}})
	if err != nil {
		g.note("buildInfo: %v", err)
		return
	}
	g.out.Version, _ = raw.Lookup("version").StringValueOK()
}

func (g *gatherer) fcv() {
	raw, err := g.run("admin", bson.D{{Key: "getParameter", Value: 1}, {Key: "featureCompatibilityVersion", Value: 1}})
	if err != nil {
		g.note("getParameter featureCompatibilityVersion: %v", err)
		return
	}
	g.out.FCV = ParseFCV(raw)
}

// ParseFCV reads a getParameter reply's featureCompatibilityVersion, which
// servers give as {version: "8.0"} or, before 3.6's format, as a string.
func ParseFCV(raw bson.Raw) string {
	v := raw.Lookup("featureCompatibilityVersion")
	if s, ok := v.StringValueOK(); ok {
		return s
	}
	if d, ok := v.DocumentOK(); ok {
		s, _ := d.Lookup("version").StringValueOK()
		return s
	}
	return ""
}

func (g *gatherer) status() {
	raw, err := g.run("admin", bson.D{{Key: "serverStatus", Value: 1}})
	if err != nil {
		g.note("serverStatus: %v", err)
		return
	}
	g.out.StorageEngine, _ = raw.Lookup("storageEngine", "name").StringValueOK()
	if v, err := raw.LookupErr("wiredTiger", "cache", "maximum bytes configured"); err == nil {
		if n, ok := v.AsInt64OK(); ok && n > 0 {
			g.out.CacheBytes = &n
		}
	}
}

// cmdLine reads the options the server was started with: the block and
// network compressors, and the cache size when serverStatus gave none.
func (g *gatherer) cmdLine() {
	raw, err := g.run("admin", bson.D{{Key: "getCmdLineOpts", Value: 1}})
	if err != nil {
		g.note("getCmdLineOpts: %v", err)
		return
	}
	opts := ParseCmdLine(raw)
	g.out.BlockCompressor = opts.BlockCompressor
	g.out.NetworkCompressors = opts.NetworkCompressors
	if g.out.CacheBytes == nil && opts.CacheBytes != nil {
		g.out.CacheBytes = opts.CacheBytes
	}
}

// CmdLine is what a getCmdLineOpts reply says of the server's settings;
// empty where the option was not set (the server's default applies).
type CmdLine struct {
	BlockCompressor    string
	NetworkCompressors []string
	CacheBytes         *int64
}

// ParseCmdLine reads a getCmdLineOpts reply's parsed options.
func ParseCmdLine(raw bson.Raw) CmdLine {
	var o CmdLine
	o.BlockCompressor, _ = raw.Lookup("parsed", "storage", "wiredTiger", "collectionConfig", "blockCompressor").StringValueOK()
	if s, ok := raw.Lookup("parsed", "net", "compression", "compressors").StringValueOK(); ok {
		for _, c := range strings.Split(s, ",") {
			if c = strings.TrimSpace(c); c != "" {
				o.NetworkCompressors = append(o.NetworkCompressors, c)
			}
		}
	}
	if v, err := raw.LookupErr("parsed", "storage", "wiredTiger", "engineConfig", "cacheSizeGB"); err == nil {
		if f, ok := v.AsFloat64OK(); ok && f > 0 {
			n := int64(f * (1 << 30))
			o.CacheBytes = &n
		}
	}
	return o
}

// topology tells a standalone server, a replica set and mongos apart
// (hello), then asks for the members or the shards.
func (g *gatherer) topology() {
	hello, err := g.run("admin", bson.D{{Key: "hello", Value: 1}})
	if err != nil {
		g.note("hello: %v", err)
		return
	}
	t := &results.Topology{Kind: results.Standalone}
	g.out.Topology = t
	msg, _ := hello.Lookup("msg").StringValueOK()
	set, _ := hello.Lookup("setName").StringValueOK()
	switch {
	case msg == "isdbgrid":
		t.Kind = results.Sharded
		g.shards(t)
	case set != "":
		t.Kind, t.SetName = results.ReplicaSet, set
		g.members(t, hello)
	}
}

// members lists the replica set's members and their states, from
// replSetGetStatus or, where that is refused (no privilege), from hello's
// host lists, whose states are then only what hello says.
func (g *gatherer) members(t *results.Topology, hello bson.Raw) {
	raw, err := g.run("admin", bson.D{{Key: "replSetGetStatus", Value: 1}})
	if err == nil {
		var ms []telemetry.Member
		if ms, err = telemetry.ParseRepl(raw); err == nil {
			for _, m := range ms {
				t.Members = append(t.Members, results.TopologyMember{Name: m.Name, State: m.State})
			}
			return
		}
	}
	g.note("replSetGetStatus: %v; the members are hello's, with the states it gives", err)
	primary, _ := hello.Lookup("primary").StringValueOK()
	for _, list := range []struct{ field, state string }{{"hosts", "SECONDARY"}, {"passives", "PASSIVE"}, {"arbiters", "ARBITER"}} {
		arr, ok := hello.Lookup(list.field).ArrayOK()
		if !ok {
			continue
		}
		vals, _ := arr.Values()
		for _, v := range vals {
			name, _ := v.StringValueOK()
			state := list.state
			if name == primary {
				state = "PRIMARY"
			}
			t.Members = append(t.Members, results.TopologyMember{Name: name, State: state})
		}
	}
}

// shards lists a sharded cluster's shards (listShards) and its routers
// (config.mongos). Either may be refused without the clusterMonitor role:
// the topology then says sharded, with a note.
func (g *gatherer) shards(t *results.Topology) {
	raw, err := g.run("admin", bson.D{{Key: "listShards", Value: 1}})
	if err != nil {
		g.note("listShards: %v: the shards are not recorded (the clusterMonitor role allows it)", err)
	} else {
		t.Shards = ParseShards(raw)
	}
	raw, err = g.run("config", bson.D{{Key: "find", Value: "mongos"}, {Key: "projection", Value: bson.D{{Key: "_id", Value: 1}}}, {Key: "limit", Value: int64(100)}})
	if err != nil {
		g.note("config.mongos: %v: the routers are not recorded", err)
		return
	}
	t.Mongos = ParseMongos(raw)
}

// ParseShards reads a listShards reply.
func ParseShards(raw bson.Raw) []results.Shard {
	arr, ok := raw.Lookup("shards").ArrayOK()
	if !ok {
		return nil
	}
	vals, _ := arr.Values()
	var out []results.Shard
	for _, v := range vals {
		d, ok := v.DocumentOK()
		if !ok {
			continue
		}
		var s results.Shard
		s.ID, _ = d.Lookup("_id").StringValueOK()
		s.Host, _ = d.Lookup("host").StringValueOK()
		out = append(out, s)
	}
	return out
}

// ParseMongos reads the first batch of a find on config.mongos: the
// routers' host:port.
func ParseMongos(raw bson.Raw) []string {
	arr, ok := raw.Lookup("cursor", "firstBatch").ArrayOK()
	if !ok {
		return nil
	}
	vals, _ := arr.Values()
	var out []string
	for _, v := range vals {
		if d, ok := v.DocumentOK(); ok {
			if id, ok := d.Lookup("_id").StringValueOK(); ok {
				out = append(out, id)
			}
		}
	}
	return out
}

func (g *gatherer) host() {
	raw, err := g.run("admin", bson.D{{Key: "hostInfo", Value: 1}})
	if err != nil {
		g.note("hostInfo: %v", err)
		return
	}
	g.out.Host = ParseHostInfo(raw)
}

// ParseHostInfo reads a hostInfo reply.
func ParseHostInfo(raw bson.Raw) *results.HostFacts {
	h := &results.HostFacts{}
	h.Hostname, _ = raw.Lookup("system", "hostname").StringValueOK()
	h.CPUArch, _ = raw.Lookup("system", "cpuArch").StringValueOK()
	name, _ := raw.Lookup("os", "name").StringValueOK()
	version, _ := raw.Lookup("os", "version").StringValueOK()
	h.OS = strings.TrimSpace(name + " " + version)
	num := func(path ...string) *int64 {
		if v, err := raw.LookupErr(path...); err == nil {
			if n, ok := v.AsInt64OK(); ok && n > 0 {
				return &n
			}
		}
		return nil
	}
	h.Cores = num("system", "numCores")
	h.MemoryMB = num("system", "memSizeMB")
	h.MemLimitMB = num("system", "memLimitMB")
	return h
}

// absent lists the facts missing from the context.
func (g *gatherer) absent() {
	c := g.out
	missing := func(name string, gone bool) {
		if gone {
			c.Absent = append(c.Absent, name)
		}
	}
	missing("version", c.Version == "")
	missing("featureCompatibilityVersion", c.FCV == "")
	missing("storageEngine", c.StorageEngine == "")
	missing("cacheBytes", c.CacheBytes == nil)
	missing("blockCompressor", c.BlockCompressor == "")
	missing("networkCompressors", len(c.NetworkCompressors) == 0)
	missing("topology", c.Topology == nil)
	h := c.Host
	missing("host", h == nil)
	if h != nil {
		missing("host.cores", h.Cores == nil)
		missing("host.memoryMB", h.MemoryMB == nil)
		missing("host.memLimitMB", h.MemLimitMB == nil)
	}
}

// Refill names the facts still absent after BlockCompressor was filled in
// from a collection's creation string.
func Refill(c *results.ServerContext) {
	kept := c.Absent[:0]
	for _, a := range c.Absent {
		if a == "blockCompressor" && c.BlockCompressor != "" {
			continue
		}
		kept = append(kept, a)
	}
	c.Absent = kept
}
