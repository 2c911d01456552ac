// Package plgm runs workloads written for Percona's plgm (Percona Load
// Generator for MongoDB Clusters) unchanged: it converts plgm's collection
// definitions (fields with types and faker providers, nested objects and
// arrays, indexes, shard keys), query definitions (find, update, delete
// and aggregate, with placeholders such as "<int>"), the operation mix of
// its config.yaml and its PLGM_* environment variables into a mongoload
// configuration with the same meaning. What has no equivalent gets a
// one-line warning naming the file and field; docs/plgm.md lists the
// mapping.
package plgm

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
)

// Options say where plgm's definitions are.
type Options struct {
	// CollectionsPath and QueriesPath are a .json file or a directory of
	// them (plgm's collections_path and queries_path); empty means
	// PLGM_COLLECTIONS_PATH / PLGM_QUERIES_PATH or config.yaml's.
	CollectionsPath, QueriesPath string
	// ConfigPath is plgm's config.yaml, optional.
	ConfigPath string
	// Getenv looks up PLGM_* variables; nil means none.
	Getenv func(string) (string, bool)
	// Now dates plgm's "within the last year" ranges (default time.Now).
	Now func() time.Time
	// FixMisses replaces plgm's fallback updates and deletes, whose filter
	// {_id: "val-NNN"} can never equal the ObjectIds of the documents, by
	// ones that hit existing documents: the collection gets integer keys
	// as _id ({$gen: key}) and the fallback draws from them. The default
	// stays faithful to plgm, so results compare with plgm's.
	FixMisses bool
}

// Warning is a plgm feature with no mongoload equivalent, or one whose
// meaning differs: one line naming the file and field.
type Warning struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (w Warning) String() string {
	var b strings.Builder
	if w.File != "" {
		b.WriteString(w.File)
		if w.Line > 0 {
			b.WriteString(":" + strconv.Itoa(w.Line))
		}
		b.WriteString(": ")
	}
	if w.Field != "" {
		b.WriteString(w.Field + ": ")
	}
	b.WriteString(w.Msg)
	return b.String()
}

// Result is a converted workload.
type Result struct {
	Config   *config.Config
	Warnings []Warning
	// Mix is the operation mix after plgm's normalization, in percent
	// ("find", "update", "delete", "insert", "bulk_insert", "aggregate").
	Mix map[string]int
	// CollectionFiles and QueryFiles are the definition files read.
	CollectionFiles, QueryFiles []string
}

type converter struct {
	now      time.Time
	set      *settings
	cols     []*collectionDef
	queries  []*queryDef
	warnings []Warning
	seen     map[Warning]bool
	names    map[string]bool
	fix      bool // Options.FixMisses
}

func (c *converter) warn(file string, line int, field, format string, args ...any) {
	w := Warning{File: file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
	if !c.seen[w] {
		c.seen[w] = true
		c.warnings = append(c.warnings, w)
	}
}

// Convert reads plgm's definitions and settings and returns the mongoload
// configuration that runs the same workload (not yet layered with
// MONGOLOAD_* variables and flags, nor validated).
func Convert(o Options) (*Result, error) {
	if o.Getenv == nil {
		o.Getenv = func(string) (string, bool) { return "", false }
	}
	now := time.Now()
	if o.Now != nil {
		now = o.Now()
	}
	c := &converter{now: now, set: defaultSettings(o.ConfigPath != ""), seen: map[Warning]bool{}, names: map[string]bool{}, fix: o.FixMisses}
	if o.ConfigPath != "" {
		if err := c.readConfigFile(o.ConfigPath); err != nil {
			return nil, err
		}
	}
	if err := c.applyEnv(o.Getenv); err != nil {
		return nil, err
	}
	colPath, qPath := first(o.CollectionsPath, c.set.collectionsPath), first(o.QueriesPath, c.set.queriesPath)
	if colPath == "" {
		return nil, &config.Error{Kind: config.Invalid, Field: "--plgm-collections",
			Msg: "say where plgm's collection definitions are: --plgm-collections DIR (or PLGM_COLLECTIONS_PATH)"}
	}
	// Pointing at definitions is plgm's custom workload mode unless
	// PLGM_DEFAULT_WORKLOAD says otherwise: a directory's default.json is
	// then left out.
	defaultWorkload := c.set.defaultWorkloadSet && c.set.defaultWorkload
	res := &Result{}
	var err error
	if res.CollectionFiles, err = jsonFiles(colPath, defaultWorkload, "collection"); err != nil {
		return nil, err
	}
	if err := c.readCollections(res.CollectionFiles); err != nil {
		return nil, err
	}
	if qPath != "" {
		if res.QueryFiles, err = jsonFiles(qPath, defaultWorkload, "query"); err != nil {
			return nil, err
		}
		if err := c.readQueries(res.QueryFiles); err != nil {
			return nil, err
		}
	}
	c.set.normalize()
	if len(c.set.distribution) > 0 && c.set.distribution[1] == "hotspot" {
		c.set.distribution = append(c.set.distribution, "hotDataFraction", c.set.hotData, "hotOpnFraction", c.set.hotOpn)
	}
	cfg, err := c.config(colPath, qPath)
	if err != nil {
		return nil, err
	}
	res.Config, res.Warnings, res.Mix = cfg, c.warnings, c.set.percent
	return res, nil
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// config assembles the mongoload configuration.
func (c *converter) config(colPath, qPath string) (*config.Config, error) {
	s := c.set
	cfg := config.Default()
	cfg.Source = "plgm:" + colPath
	base := strings.TrimSuffix(filepath.Base(filepath.Clean(colPath)), filepath.Ext(colPath))
	cfg.Name = "plgm-" + base
	cfg.Description = fmt.Sprintf("converted from plgm (collections %s, queries %s): %s", colPath, first(qPath, "none"), mixText(s.percent))
	cn := &cfg.Connection
	if s.uri != "" {
		cn.URI = s.uri
	}
	cn.Username, cn.Password, cn.AuthSource, cn.ReadPreference = s.username, s.password, s.authSource, s.readPreference
	if len(s.options) > 0 {
		cn.Options = s.options
	}
	cn.MaxPoolSize, cn.MinPoolSize = s.maxPool, s.minPool
	if s.connectTimeout > 0 {
		cn.Timeouts.Connect = config.Duration(s.connectTimeout)
	}
	if s.selectionTimeout > 0 {
		cn.Timeouts.ServerSelection = config.Duration(s.selectionTimeout)
	}
	r := &cfg.Run
	if s.concurrency > 0 {
		r.Concurrency = s.concurrency
	}
	if s.duration > 0 {
		r.Duration = config.Duration(s.duration)
	} else {
		c.warn("", 0, "duration", "plgm's duration 0 (run every query once) is not supported: the run lasts %s (set --duration or --operations)", r.Duration)
	}
	if !s.skipSeed {
		r.Seed = s.documents
	}
	if s.seedBatch > 0 {
		r.SeedBatchSize = s.seedBatch
	}
	if s.randomSeed != 0 {
		r.RandomSeed = uint64(s.randomSeed) // plgm's one seed drives its data and its operations
		r.OperationSeed = uint64(s.randomSeed)
	}
	if s.interval > 0 {
		r.Interval = config.Duration(s.interval)
	}
	r.Drop = s.drop
	for _, col := range c.cols {
		cfg.Collections = append(cfg.Collections, c.collection(col))
	}
	ops, err := c.operations()
	if err != nil {
		return nil, err
	}
	cfg.Operations = ops
	return cfg, nil
}

// mixText describes the normalized mix: "find 54%, update 21%, ...".
func mixText(p map[string]int) string {
	var parts []string
	for _, k := range mixKeys {
		if p[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d%%", strings.ReplaceAll(k, "_", " "), p[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// collection converts one collection definition.
func (c *converter) collection(col *collectionDef) config.Collection {
	out := config.Collection{Database: col.db, Name: col.name, Line: col.line}
	t := doc()
	if c.fix && c.fallbackMisses(col) {
		t.Fields = append(t.Fields, field("_id", gen("key")))
	}
	for _, f := range col.fields {
		if c.fix && f.name == "_id" && c.fallbackMisses(col) {
			continue // keyed instead, so the fallback reaches the documents
		}
		t.Fields = append(t.Fields, field(f.name, c.template(col, f)))
	}
	out.Template = t
	for _, ix := range col.indexes {
		out.Indexes = append(out.Indexes, config.Index{Keys: fromJSON(ix.keys, nil, ""), Line: ix.line})
	}
	if col.shardKey != nil {
		out.ShardKey = fromJSON(col.shardKey, nil, "")
	}
	return out
}

// collName is how an operation names its collection: by name, or by
// namespace when two databases have a collection of that name.
func (c *converter) collName(col *collectionDef) string {
	for _, other := range c.cols {
		if other != col && other.name == col.name {
			return col.db + "." + col.name
		}
	}
	return col.name
}
