package ycsb

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
)

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
