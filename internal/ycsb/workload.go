package ycsb

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
)

// Workload is YCSB's core workload (CoreWorkload) and client settings, as
// read from properties.
type Workload struct {
	RecordCount    int64 // recordcount: records loaded before the run
	OperationCount int64 // operationcount: 0 for no limit

	// The mix: proportions of each operation, as in the property files.
	Read, Update, Insert, Scan, ReadModifyWrite float64

	RequestDistribution string // uniform, zipfian, latest, hotspot, sequential, exponential
	Ordered             bool   // insertorder=ordered: keys not hashed
	ZeroPadding         int
	InsertStart         int64
	InsertCount         int64 // records this client loads; -1: recordcount - insertstart

	FieldCount              int
	FieldLength             int64
	MinFieldLength          int64
	FieldLengthDistribution string // constant, uniform or zipfian
	FieldNamePrefix         string
	ReadAllFields           bool
	ReadAllFieldsByName     bool
	WriteAllFields          bool

	MinScanLength          int64
	MaxScanLength          int64
	ScanLengthDistribution string // uniform or zipfian

	HotspotDataFraction, HotspotOpnFraction float64
	ExponentialPercentile, ExponentialFrac  float64

	Table            string
	URL              string // mongodb.url; "" keeps mongoload's connection
	Database         string // from the URL's path, else "ycsb"
	ThreadCount      int
	Target           float64       // target operations per second; 0 for none
	MaxExecutionTime time.Duration // 0 for none
	BatchSize        int           // batchsize: documents per insertMany while loading; 0 keeps mongoload's

	// Output: YCSB's status interval and exported percentiles.
	StatusInterval time.Duration
	Percentiles    []float64
}

// Default returns CoreWorkload's defaults.
func Default() *Workload {
	return &Workload{
		Read: 0.95, Update: 0.05,
		RequestDistribution: "uniform",
		ZeroPadding:         1,
		InsertCount:         -1, // recordcount - insertstart
		FieldCount:          10, FieldLength: 100, MinFieldLength: 1,
		FieldLengthDistribution: "constant",
		FieldNamePrefix:         "field",
		ReadAllFields:           true,
		MinScanLength:           1, MaxScanLength: 1000,
		ScanLengthDistribution: "uniform",
		HotspotDataFraction:    0.2, HotspotOpnFraction: 0.8,
		ExponentialPercentile: 95, ExponentialFrac: 0.8571428571,
		Table:          "usertable",
		Database:       "ycsb",
		ThreadCount:    1,
		StatusInterval: 10 * time.Second,
		Percentiles:    []float64{50, 95, 99},
	}
}

// Distributions are YCSB's request distributions.
var Distributions = []string{"uniform", "zipfian", "latest", "hotspot", "sequential", "exponential"}

// urlDatabase is the database in a connection string's path, if any.
func urlDatabase(uri string) string {
	_, rest, _ := strings.Cut(uri, "://")
	_, path, ok := strings.Cut(rest, "/")
	if !ok {
		return ""
	}
	db, _, _ := strings.Cut(path, "?")
	return db
}

// Decode reads a Workload from ps over CoreWorkload's defaults. It returns
// one warning per property it does not map, and every bad value at once,
// each located at its file and line (or -p).
func Decode(ps *Properties) (w *Workload, warnings []string, err error) {
	w = Default()
	var es config.Errors
	known := make([]string, 0, len(props)+len(accepted))
	for k := range props {
		known = append(known, k)
	}
	for k := range accepted {
		known = append(known, k)
	}
	for _, p := range ps.All() {
		if set, ok := props[p.Key]; ok {
			if e := set(w, p.Value); e != nil {
				es = append(es, locate(p, e.Error()))
			}
			continue
		}
		if check, ok := accepted[p.Key]; ok {
			if msg := check(p.Value); msg != "" {
				warnings = append(warnings, fmt.Sprintf("%s: %s=%s: %s", p.where(), p.Key, p.Value, msg))
			}
			continue
		}
		if slices.Contains(unsupported, p.Key) {
			warnings = append(warnings, fmt.Sprintf("%s: %s is a YCSB property mongoload does not support: it is ignored", p.where(), p.Key))
			continue
		}
		warnings = append(warnings, fmt.Sprintf("%s: unknown property %q is ignored%s", p.where(), p.Key, config.DidYouMean(p.Key, known)))
	}
	es = append(es, w.check(ps)...)
	return w, warnings, es.Err()
}

// locate turns a property's problem into a located configuration error.
func locate(p *Property, msg string) *config.Error {
	file := p.File
	if file == "-p" {
		file = ""
		msg += fmt.Sprintf(" (in -p %s=%s)", p.Key, p.Value)
	}
	return &config.Error{Kind: config.Invalid, File: file, Line: p.Line, Field: p.Key, Msg: msg}
}

// check finds the problems between properties, located at the property
// that would fix them.
func (w *Workload) check(ps *Properties) config.Errors {
	var es config.Errors
	at := func(key, format string, args ...any) {
		p, ok := ps.Get(key)
		if !ok {
			p = &Property{Key: key}
		}
		es = append(es, locate(p, fmt.Sprintf(format, args...)))
	}
	w.InsertCount = w.insertCount()
	if w.RecordCount > 0 && w.InsertStart+w.InsertCount > w.RecordCount {
		at("insertcount", "insertstart %d + insertcount %d is more than recordcount %d: lower them or raise recordcount", w.InsertStart, w.InsertCount, w.RecordCount)
	}
	if w.Read+w.Update+w.Insert+w.Scan+w.ReadModifyWrite <= 0 {
		at("readproportion", "every proportion is 0: give readproportion, updateproportion, insertproportion, scanproportion or readmodifywriteproportion a positive value")
	}
	if w.MinFieldLength > w.FieldLength && w.FieldLengthDistribution != "constant" {
		at("minfieldlength", "minfieldlength %d is more than fieldlength %d", w.MinFieldLength, w.FieldLength)
	}
	if w.MinScanLength > w.MaxScanLength && w.Scan > 0 {
		at("minscanlength", "minscanlength %d is more than maxscanlength %d", w.MinScanLength, w.MaxScanLength)
	}
	return es
}
