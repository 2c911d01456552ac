package ycsb

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

var update = flag.Bool("update", false, "rewrite the built-in YCSB workloads in internal/builtin")

// decode parses src as a property file plus -p args and decodes it.
func decode(t *testing.T, src string, args ...string) (*Workload, []string, error) {
	t.Helper()
	ps := NewProperties()
	if err := ps.Parse([]byte(src), "workloadx"); err != nil {
		t.Fatal(err)
	}
	for _, a := range args {
		if err := ps.SetArg(a); err != nil {
			t.Fatal(err)
		}
	}
	return Decode(ps)
}

// TestDecode protects the mapping of each core property.
func TestDecode(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		args  []string
		check func(w *Workload) bool
	}{
		// nothing set: CoreWorkload's defaults
		{"defaults", "", nil, func(w *Workload) bool {
			return w.Read == 0.95 && w.Update == 0.05 && w.FieldCount == 10 && w.FieldLength == 100 &&
				w.RequestDistribution == "uniform" && !w.Ordered && w.ZeroPadding == 1 && w.ReadAllFields &&
				!w.WriteAllFields && w.MaxScanLength == 1000 && w.Table == "usertable" && w.Database == "ycsb" &&
				w.ThreadCount == 1 && w.StatusInterval == 10*time.Second && len(w.Percentiles) == 3
		}},
		// the mix
		{"proportions", "readproportion=0\nupdateproportion=0\ninsertproportion=0.05\nscanproportion=0.95\nreadmodifywriteproportion=0.1", nil, func(w *Workload) bool {
			return w.Read == 0 && w.Update == 0 && w.Insert == 0.05 && w.Scan == 0.95 && w.ReadModifyWrite == 0.1
		}},
		// -p overrides the file
		{"-p wins", "recordcount=1000\nrequestdistribution=zipfian", []string{"recordcount=50000", "requestdistribution=latest"}, func(w *Workload) bool {
			return w.RecordCount == 50000 && w.InsertCount == 50000 && w.RequestDistribution == "latest"
		}},
		// insertstart and insertcount: this client's share of the records
		{"insert range", "recordcount=1000\ninsertstart=500\ninsertcount=250", nil, func(w *Workload) bool {
			return w.InsertStart == 500 && w.InsertCount == 250
		}},
		// insertcount defaults to recordcount - insertstart
		{"insertcount default", "recordcount=1000\ninsertstart=400", nil, func(w *Workload) bool { return w.InsertCount == 600 }},
		// record shape
		{"fields", "fieldcount=3\nfieldlength=20\nminfieldlength=5\nfieldlengthdistribution=zipfian\nfieldnameprefix=f\ninsertorder=ordered\nzeropadding=12", nil, func(w *Workload) bool {
			return w.FieldCount == 3 && w.FieldLength == 20 && w.MinFieldLength == 5 && w.FieldLengthDistribution == "zipfian" &&
				w.FieldNamePrefix == "f" && w.Ordered && w.ZeroPadding == 12
		}},
		// reads and writes
		{"all fields", "readallfields=false\nreadallfieldsbyname=true\nwriteallfields=TRUE", nil, func(w *Workload) bool {
			return !w.ReadAllFields && w.ReadAllFieldsByName && w.WriteAllFields
		}},
		// scans
		{"scans", "minscanlength=2\nmaxscanlength=100\nscanlengthdistribution=zipfian", nil, func(w *Workload) bool {
			return w.MinScanLength == 2 && w.MaxScanLength == 100 && w.ScanLengthDistribution == "zipfian"
		}},
		// hotspot and exponential parameters
		{"distribution parameters", "hotspotdatafraction=0.1\nhotspotopnfraction=0.9\nexponential.percentile=90\nexponential.frac=0.5", nil, func(w *Workload) bool {
			return w.HotspotDataFraction == 0.1 && w.HotspotOpnFraction == 0.9 && w.ExponentialPercentile == 90 && w.ExponentialFrac == 0.5
		}},
		// the client: threads, target, time limit, status interval, percentiles
		{"client", "threadcount=16\ntarget=5000\nmaxexecutiontime=60\nstatus.interval=5\nhdrhistogram.percentiles=50,90,99.9", nil, func(w *Workload) bool {
			return w.ThreadCount == 16 && w.Target == 5000 && w.MaxExecutionTime == time.Minute &&
				w.StatusInterval == 5*time.Second && len(w.Percentiles) == 3 && w.Percentiles[2] == 99.9
		}},
		// the URL's database is YCSB's database
		{"url", "mongodb.url=mongodb://h1:27017,h2:27017/bench?w=majority", nil, func(w *Workload) bool {
			return w.URL == "mongodb://h1:27017,h2:27017/bench?w=majority" && w.Database == "bench"
		}},
		// admin in the URL is not the data's database, as in YCSB
		{"url admin", "mongodb.url=mongodb://localhost:27017/admin", nil, func(w *Workload) bool { return w.Database == "ycsb" }},
		// the binding's load batch size
		{"batchsize", "batchsize=100", nil, func(w *Workload) bool { return w.BatchSize == 100 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, warnings, err := decode(t, tt.src, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			if len(warnings) > 0 {
				t.Errorf("warnings: %q", warnings)
			}
			if !tt.check(w) {
				t.Errorf("decoded %+v", *w)
			}
		})
	}
}

// TestDecodeErrors protects the messages for bad values: each names the
// file and line (or the -p argument), the property, and what would do.
func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		args []string
		want string // the whole message
	}{
		// a number that is not one
		{"count", "\nrecordcount=lots", nil, `workloadx:2: recordcount: "lots" is not a whole number of 0 or more`},
		// a negative proportion
		{"proportion", "readproportion=-1", nil, `workloadx:1: readproportion: "-1" is not a proportion of 0 or more, such as 0.5`},
		// an unknown distribution, with a suggestion
		{"distribution", "requestdistribution=zipf", nil, `workloadx:1: requestdistribution: "zipf" is not one of uniform, zipfian, latest, hotspot, sequential, exponential (did you mean "zipfian"?)`},
		// a bad value given with -p says so
		{"-p", "", []string{"threadcount=0"}, `threadcount: "0" is not a thread count of 1 or more (in -p threadcount=0)`},
		// YCSB's histogram field lengths need a file mongoload does not read
		{"histogram", "fieldlengthdistribution=histogram", nil, `workloadx:1: fieldlengthdistribution: "histogram" is not one of constant, uniform, zipfian`},
		// a fraction above 1
		{"fraction", "hotspotopnfraction=80", nil, `workloadx:1: hotspotopnfraction: "80" is not a fraction between 0 and 1, such as 0.2`},
		// inconsistent counts are reported at the property to change
		{"insert range", "recordcount=100\ninsertstart=50\ninsertcount=80", nil, `workloadx:3: insertcount: insertstart 50 + insertcount 80 is more than recordcount 100: lower them or raise recordcount`},
		// nothing to do
		{"no operation", "readproportion=0\nupdateproportion=0", nil, `workloadx:1: readproportion: every proportion is 0: give readproportion, updateproportion, insertproportion, scanproportion or readmodifywriteproportion a positive value`},
		// a URL of another scheme
		{"url", "mongodb.url=http://x", nil, `workloadx:1: mongodb.url: "http://x" must start with mongodb:// or mongodb+srv://`},
		// booleans are true or false
		{"boolean", "readallfields=yes", nil, `workloadx:1: readallfields: "yes" is not true or false`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := decode(t, tt.src, tt.args...)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
			if k, ok := config.KindOf(err); !ok || k != config.Invalid {
				t.Errorf("error kind %v, want config.Invalid", k)
			}
		})
	}
}

// TestDecodeWarnings: every property mongoload ignores or cannot honour
// gets exactly one warning line, located; none is silently dropped.
func TestDecodeWarnings(t *testing.T) {
	src := "workload=site.ycsb.workloads.CoreWorkload\nkeylengthdistribution=extremevalue\nfieldcount=10\n" +
		"dataintegrity=true\nmeasurementtype=timeseries\nreadproportin=0.5\nworkload=com.example.MyWorkload\n"
	_, warnings, err := decode(t, src, "exporter=site.ycsb.measurements.exporter.JSONMeasurementsExporter")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`workloadx:7: workload=com.example.MyWorkload: mongoload runs YCSB's CoreWorkload only; this workload class is ignored`,
		`workloadx:2: keylengthdistribution is a YCSB property mongoload does not support: it is ignored`,
		`workloadx:4: dataintegrity=true: reads are not verified (dataintegrity is not supported)`,
		`workloadx:5: measurementtype=timeseries: mongoload always measures with HDR histograms, as measurementtype=hdrhistogram`,
		`workloadx:6: unknown property "readproportin" is ignored (did you mean "readproportion"?)`,
		`-p: exporter is a YCSB property mongoload does not support: it is ignored`,
	}
	if strings.Join(warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(want, "\n"))
	}
}

// TestLoadWorkloadA reads YCSB's own workloads/workloada, unchanged, with
// -p overrides, and checks the mongoload workload it becomes: the record
// shape, the mix, the key distribution and the run settings.
func TestLoadWorkloadA(t *testing.T) {
	cfg, w, warnings, err := Load([]string{"testdata/workloada"},
		[]string{"recordcount=5000", "operationcount=20000", "threadcount=4", "mongodb.url=mongodb://127.0.0.1:27017/ycsb?w=1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 {
		t.Errorf("unexpected warnings: %q", warnings)
	}
	if es := cfg.Validate(); len(es) > 0 {
		t.Fatal(es)
	}
	plan, err := workload.Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if w.RecordCount != 5000 || w.Read != 0.5 || w.Update != 0.5 || w.RequestDistribution != "zipfian" {
		t.Errorf("decoded %+v", *w)
	}
	r := cfg.Run
	if r.Seed != 5000 || r.Operations != 20000 || r.Duration != 0 || r.Concurrency != 4 {
		t.Errorf("run settings %+v: want seed 5000, 20000 operations, no duration, 4 workers", r)
	}
	if cfg.Connection.URI != "mongodb://127.0.0.1:27017/ycsb?w=1" || cfg.Name != "workloada" || cfg.Source != "ycsb:testdata/workloada" {
		t.Errorf("uri %q, name %q, source %q", cfg.Connection.URI, cfg.Name, cfg.Source)
	}
	col := plan.Collections[0]
	if col.Namespace() != "ycsb.usertable" || len(plan.Ops) != 2 {
		t.Fatalf("%s with %d operations, want ycsb.usertable with READ and UPDATE", col.Namespace(), len(plan.Ops))
	}
	for i, want := range []struct {
		name string
		kind workload.Kind
	}{{OpRead, workload.FindOne}, {OpUpdate, workload.UpdateOne}} {
		if op := plan.Ops[i]; op.Name != want.name || op.Kind != want.kind || op.Weight != 0.5 {
			t.Errorf("operation %d: %s (kind %d, weight %g), want %s", i, op.Name, op.Kind, op.Weight, want.name)
		}
	}
	// The zipfian item count is YCSB's: the records plus twice the expected
	// inserts (none here), plus one.
	if !strings.Contains(string(w.YAML(RenderOptions{Name: "a"})), "distribution: zipfian, items: 5001") {
		t.Error("zipfian items are not recordcount + 1")
	}
}

// TestBuiltins keeps internal/builtin/ycsb-a.yaml ... ycsb-f.yaml what
// this package renders from YCSB's core workloads (-update rewrites them),
// and checks that each compiles into its YCSB mix.
func TestBuiltins(t *testing.T) {
	kinds := map[string]workload.Kind{OpRead: workload.FindOne, OpUpdate: workload.UpdateOne,
		OpInsert: workload.InsertOne, OpScan: workload.Find, OpReadModifyWrite: workload.ReadModifyWrite}
	mixes := map[string]string{"a": "READ UPDATE", "b": "READ UPDATE", "c": "READ", "d": "READ INSERT",
		"e": "INSERT SCAN", "f": "READ READ-MODIFY-WRITE"}
	for _, c := range Cores {
		t.Run(c.Name(), func(t *testing.T) {
			got, err := c.BuiltinYAML()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("..", "builtin", c.Name()+".yaml")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/ycsb -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s is out of date: run go test ./internal/ycsb -update", path)
			}
			cfg, plan := workloadtest.Compile(t, got, "builtin:"+c.Name())
			var names []string
			for _, op := range plan.Ops {
				names = append(names, op.Name)
				if op.Kind != kinds[op.Name] {
					t.Errorf("%s compiles to kind %d", op.Name, op.Kind)
				}
			}
			if strings.Join(names, " ") != mixes[c.Letter] {
				t.Errorf("operations %v, want %s", names, mixes[c.Letter])
			}
			if cfg.Run.Seed != 1000 {
				t.Errorf("seed %d, want YCSB's recordcount 1000", cfg.Run.Seed)
			}
		})
	}
}
