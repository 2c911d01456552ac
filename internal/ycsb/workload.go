package ycsb

import (
	"fmt"
	"math"
	"slices"
	"strconv"
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

// prop decodes one property into w; its error says what is wrong and, in
// an example, what would be right.
type prop func(w *Workload, v string) error

// props are the properties mongoload maps, by name.
var props = map[string]prop{
	"recordcount":               count(func(w *Workload) *int64 { return &w.RecordCount }),
	"operationcount":            count(func(w *Workload) *int64 { return &w.OperationCount }),
	"readproportion":            proportion(func(w *Workload) *float64 { return &w.Read }),
	"updateproportion":          proportion(func(w *Workload) *float64 { return &w.Update }),
	"insertproportion":          proportion(func(w *Workload) *float64 { return &w.Insert }),
	"scanproportion":            proportion(func(w *Workload) *float64 { return &w.Scan }),
	"readmodifywriteproportion": proportion(func(w *Workload) *float64 { return &w.ReadModifyWrite }),
	"requestdistribution":       oneOf(Distributions, func(w *Workload) *string { return &w.RequestDistribution }),
	"insertorder": func(w *Workload, v string) error {
		if v != "hashed" && v != "ordered" {
			return fmt.Errorf("%q is not hashed or ordered", v)
		}
		w.Ordered = v == "ordered"
		return nil
	},
	"zeropadding": func(w *Workload, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 64 {
			return fmt.Errorf("%q is not a padding between 0 and 64 digits", v)
		}
		w.ZeroPadding = n
		return nil
	},
	"insertstart": count(func(w *Workload) *int64 { return &w.InsertStart }),
	"insertcount": count(func(w *Workload) *int64 { return &w.InsertCount }),
	"fieldcount": func(w *Workload, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			return fmt.Errorf("%q is not a field count between 1 and 10000", v)
		}
		w.FieldCount = n
		return nil
	},
	"fieldlength":             length(func(w *Workload) *int64 { return &w.FieldLength }),
	"minfieldlength":          length(func(w *Workload) *int64 { return &w.MinFieldLength }),
	"fieldlengthdistribution": oneOf([]string{"constant", "uniform", "zipfian"}, func(w *Workload) *string { return &w.FieldLengthDistribution }),
	"fieldnameprefix": func(w *Workload, v string) error {
		if v == "" || strings.ContainsAny(v, ".$\x00") {
			return fmt.Errorf("%q cannot start MongoDB field names: use letters, digits and _", v)
		}
		w.FieldNamePrefix = v
		return nil
	},
	"readallfields":          boolean(func(w *Workload) *bool { return &w.ReadAllFields }),
	"readallfieldsbyname":    boolean(func(w *Workload) *bool { return &w.ReadAllFieldsByName }),
	"writeallfields":         boolean(func(w *Workload) *bool { return &w.WriteAllFields }),
	"minscanlength":          length(func(w *Workload) *int64 { return &w.MinScanLength }),
	"maxscanlength":          length(func(w *Workload) *int64 { return &w.MaxScanLength }),
	"scanlengthdistribution": oneOf([]string{"uniform", "zipfian"}, func(w *Workload) *string { return &w.ScanLengthDistribution }),
	"hotspotdatafraction":    fraction(func(w *Workload) *float64 { return &w.HotspotDataFraction }),
	"hotspotopnfraction":     fraction(func(w *Workload) *float64 { return &w.HotspotOpnFraction }),
	"exponential.percentile": func(w *Workload, v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0 && f < 100) {
			return fmt.Errorf("%q is not a percentile between 0 and 100 (exclusive), such as 95", v)
		}
		w.ExponentialPercentile = f
		return nil
	},
	"exponential.frac": func(w *Workload, v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0) || math.IsInf(f, 0) {
			return fmt.Errorf("%q is not a fraction above 0, such as 0.8571428571", v)
		}
		w.ExponentialFrac = f
		return nil
	},
	"table": func(w *Workload, v string) error {
		if v == "" || strings.Contains(v, "$") || strings.HasPrefix(v, "system.") {
			return fmt.Errorf("%q is not a collection name MongoDB allows", v)
		}
		w.Table = v
		return nil
	},
	"mongodb.url": func(w *Workload, v string) error {
		if !strings.HasPrefix(v, "mongodb://") && !strings.HasPrefix(v, "mongodb+srv://") {
			return fmt.Errorf("%q must start with mongodb:// or mongodb+srv://", config.RedactURI(v))
		}
		w.URL = v
		if db := urlDatabase(v); db != "" && db != "admin" {
			w.Database = db
		}
		return nil
	},
	"threadcount": func(w *Workload, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("%q is not a thread count of 1 or more", v)
		}
		w.ThreadCount = n
		return nil
	},
	"target": func(w *Workload, v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || math.IsInf(f, 0) {
			return fmt.Errorf("%q is not a rate in operations per second (0 for none)", v)
		}
		w.Target = f
		return nil
	},
	"maxexecutiontime": seconds(func(w *Workload) *time.Duration { return &w.MaxExecutionTime }),
	"status.interval": func(w *Workload, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("%q is not a whole number of seconds, 1 or more", v)
		}
		w.StatusInterval = time.Duration(n) * time.Second
		return nil
	},
	"hdrhistogram.percentiles": func(w *Workload, v string) error {
		var ps []float64
		for _, s := range strings.Split(v, ",") {
			f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || !(f >= 0 && f <= 100) {
				return fmt.Errorf("%q is not a list of percentiles such as 50,95,99", v)
			}
			ps = append(ps, f)
		}
		w.Percentiles = ps
		return nil
	},
	"batchsize": func(w *Workload, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("%q is not a batch size of 1 or more", v)
		}
		w.BatchSize = n
		return nil
	},
}

// accepted are properties mongoload understands without mapping them; the
// function returns a warning for values it cannot honour, "" otherwise.
var accepted = map[string]func(v string) string{
	"workload": func(v string) string {
		if strings.HasSuffix(v, ".CoreWorkload") {
			return ""
		}
		return "mongoload runs YCSB's CoreWorkload only; this workload class is ignored"
	},
	"db": func(v string) string {
		if strings.Contains(strings.ToLower(v), "mongo") {
			return ""
		}
		return "mongoload only talks to MongoDB; this binding is ignored"
	},
	"dataintegrity": unsupportedIf("true", "reads are not verified (dataintegrity is not supported)"),
	"measurementtype": unsupportedUnless("hdrhistogram",
		"mongoload always measures with HDR histograms, as measurementtype=hdrhistogram"),
	"measurement.interval": unsupportedUnless("op",
		"latency is measured per operation from its send (measurement.interval=op); for open-loop latency from the intended start use --rate"),
	"fieldlengthhistogram": func(string) string { return "" }, // only read with fieldlengthdistribution=histogram, which is refused
	"mongodb.upsert":       unsupportedIf("true", "inserts are plain inserts (mongodb.upsert is not supported)"),
}

// unsupported are YCSB properties (of the client, the measurements or the
// MongoDB binding) that mongoload has no equivalent for.
var unsupported = []string{
	"exporter", "exportfile", "dotransactions", "keylengthdistribution", "debug",
	"measurement.trackjvm", "measurement.histogram.verbose", "measurement.raw.output_file",
	"measurement.raw.no_summary", "hdrhistogram.fileoutput", "hdrhistogram.output.path",
	"histogram.buckets", "timeseries.granularity", "reportlatencyforeacherror", "latencytrackederrors",
	"core_workload_insertion_retry_limit", "core_workload_insertion_retry_interval",
	"mongodb.writeConcern", "mongodb.readPreference", "mongodb.maxconnections",
	"mongodb.threadsAllowedToBlockForConnectionMultiplier",
}

func unsupportedIf(bad, msg string) func(string) string {
	return func(v string) string {
		if strings.EqualFold(v, bad) {
			return msg
		}
		return ""
	}
}

func unsupportedUnless(good, msg string) func(string) string {
	return func(v string) string {
		if v == good {
			return ""
		}
		return msg
	}
}

func count(field func(*Workload) *int64) prop {
	return func(w *Workload, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a whole number of 0 or more", v)
		}
		*field(w) = n
		return nil
	}
}

func length(field func(*Workload) *int64) prop {
	return func(w *Workload, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 || n > 16<<20 {
			return fmt.Errorf("%q is not a length between 1 and 16777216", v)
		}
		*field(w) = n
		return nil
	}
}

func proportion(field func(*Workload) *float64) prop {
	return func(w *Workload, v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || math.IsInf(f, 0) {
			return fmt.Errorf("%q is not a proportion of 0 or more, such as 0.5", v)
		}
		*field(w) = f
		return nil
	}
}

func fraction(field func(*Workload) *float64) prop {
	return func(w *Workload, v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f >= 0 && f <= 1) {
			return fmt.Errorf("%q is not a fraction between 0 and 1, such as 0.2", v)
		}
		*field(w) = f
		return nil
	}
}

func boolean(field func(*Workload) *bool) prop {
	return func(w *Workload, v string) error {
		// Java's Boolean.parseBoolean: "true" in any case is true, anything
		// else false. Anything but true or false is more likely a mistake.
		switch strings.ToLower(v) {
		case "true":
			*field(w) = true
		case "false":
			*field(w) = false
		default:
			return fmt.Errorf("%q is not true or false", v)
		}
		return nil
	}
}

func seconds(field func(*Workload) *time.Duration) prop {
	return func(w *Workload, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > math.MaxInt64/int64(time.Second) {
			return fmt.Errorf("%q is not a whole number of seconds", v)
		}
		*field(w) = time.Duration(n) * time.Second
		return nil
	}
}

func oneOf(options []string, field func(*Workload) *string) prop {
	return func(w *Workload, v string) error {
		for _, o := range options {
			if v == o {
				*field(w) = v
				return nil
			}
		}
		return fmt.Errorf("%q is not one of %s%s", v, strings.Join(options, ", "), config.DidYouMean(v, options))
	}
}

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
