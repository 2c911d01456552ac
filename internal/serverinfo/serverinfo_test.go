package serverinfo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// fake answers commands from replies by command name; a missing one is
// refused as a server without it would.
type fake map[string]bson.Raw

func (f fake) Command(_ context.Context, db string, cmd bson.D) (bson.Raw, error) {
	name := cmd[0].Key
	if name == "find" {
		name = db + "." + cmd[0].Value.(string)
	}
	if r, ok := f[name]; ok {
		return r, nil
	}
	return nil, errors.New("(CommandNotFound) no such command: '" + name + "'")
}

// fixture reads a reply captured from a real server (testdata/*.json).
func fixture(t *testing.T, name string) bson.Raw {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return doc(t, string(data))
}

func doc(t *testing.T, ext string) bson.Raw {
	t.Helper()
	var raw bson.Raw
	if err := bson.UnmarshalExtJSON([]byte(ext), false, &raw); err != nil {
		t.Fatalf("%v: %s", err, ext)
	}
	return raw
}

func secantus(t *testing.T) fake {
	return fake{
		"buildInfo": fixture(t, "secantus-buildinfo.json"), "hostInfo": fixture(t, "secantus-hostinfo.json"),
		"getParameter": fixture(t, "secantus-getparameter.json"), "getCmdLineOpts": fixture(t, "secantus-getcmdlineopts.json"),
		"hello": fixture(t, "secantus-hello.json"), "replSetGetStatus": fixture(t, "secantus-replsetgetstatus.json"),
		"serverStatus": doc(t, `{"storageEngine": {"name": "wiredTiger"}, "wiredTiger": {"cache": {"maximum bytes configured": 268435456}}}`),
	}
}

func mongos(t *testing.T, listShards bool) fake {
	f := fake{
		"buildInfo":      doc(t, `{"version": "7.0.12"}`),
		"getParameter":   doc(t, `{"featureCompatibilityVersion": {"version": "7.0"}}`),
		"serverStatus":   doc(t, `{"process": "mongos"}`),
		"getCmdLineOpts": doc(t, `{"parsed": {"net": {"compression": {"compressors": "snappy,zstd,zlib"}}}}`),
		"hello":          doc(t, `{"msg": "isdbgrid", "isWritablePrimary": true}`),
		"hostInfo":       doc(t, `{"system": {"hostname": "router1", "numCores": 4, "memSizeMB": 7962}, "os": {"name": "Ubuntu", "version": "22.04"}}`),
		"config.mongos":  doc(t, `{"cursor": {"firstBatch": [{"_id": "router1:27017"}, {"_id": "router2:27017"}]}}`),
	}
	if listShards {
		f["listShards"] = doc(t, `{"shards": [{"_id": "rs0", "host": "rs0/db1:27018,db2:27018,db3:27018", "state": 1}]}`)
	}
	return f
}

func i64(n int64) *int64 { return &n }

func TestGather(t *testing.T) {
	tests := []struct {
		name     string
		f        func(t *testing.T) fake
		want     results.ServerContext // At, Notes and the host's text fields are checked apart
		notes    []string              // each must appear in some note
		noteless bool
	}{
		{
			name: "secantus: one-member replica set, no compressors in its options", // as captured from the test server
			f:    secantus,
			want: results.ServerContext{Version: "8.2.11", FCV: "8.2", StorageEngine: "wiredTiger", CacheBytes: i64(256 << 20),
				Topology: &results.Topology{Kind: results.ReplicaSet, SetName: "secantus", Members: []results.TopologyMember{{Name: "127.0.0.1:41079", State: "PRIMARY"}}},
				Host:     &results.HostFacts{Cores: i64(2), MemoryMB: i64(24105), MemLimitMB: i64(24105)},
				Absent:   []string{"blockCompressor", "networkCompressors"}},
			noteless: true,
		},
		{
			name: "mongos with the clusterMonitor role: shards and routers", // the sharded path, for real MongoDB
			f:    func(t *testing.T) fake { return mongos(t, true) },
			want: results.ServerContext{Version: "7.0.12", FCV: "7.0", NetworkCompressors: []string{"snappy", "zstd", "zlib"},
				Topology: &results.Topology{Kind: results.Sharded, Shards: []results.Shard{{ID: "rs0", Host: "rs0/db1:27018,db2:27018,db3:27018"}},
					Mongos: []string{"router1:27017", "router2:27017"}},
				Host:   &results.HostFacts{Cores: i64(4), MemoryMB: i64(7962)},
				Absent: []string{"storageEngine", "cacheBytes", "blockCompressor", "host.memLimitMB"}},
			noteless: true,
		},
		{
			name: "mongos refusing listShards: still sharded, with a note", // degrades, never fails
			f:    func(t *testing.T) fake { return mongos(t, false) },
			want: results.ServerContext{Version: "7.0.12", FCV: "7.0", NetworkCompressors: []string{"snappy", "zstd", "zlib"},
				Topology: &results.Topology{Kind: results.Sharded, Mongos: []string{"router1:27017", "router2:27017"}},
				Host:     &results.HostFacts{Cores: i64(4), MemoryMB: i64(7962)},
				Absent:   []string{"storageEngine", "cacheBytes", "blockCompressor", "host.memLimitMB"}},
			notes: []string{"listShards: (CommandNotFound)", "clusterMonitor"},
		},
		{
			name: "a server refusing everything but hello: all absent, never 0", // a locked-down user
			f:    func(t *testing.T) fake { return fake{"hello": doc(t, `{"isWritablePrimary": true}`)} },
			want: results.ServerContext{Topology: &results.Topology{Kind: results.Standalone},
				Absent: []string{"version", "featureCompatibilityVersion", "storageEngine", "cacheBytes", "blockCompressor", "networkCompressors", "host"}},
			notes: []string{"buildInfo:", "hostInfo:", "getCmdLineOpts:"},
		},
		{
			name: "replica set without replSetGetStatus: members from hello", // no clusterMonitor role
			f: func(t *testing.T) fake {
				return fake{"hello": doc(t, `{"setName": "rs0", "primary": "a:1", "hosts": ["a:1", "b:1"], "arbiters": ["c:1"]}`)}
			},
			want: results.ServerContext{Topology: &results.Topology{Kind: results.ReplicaSet, SetName: "rs0",
				Members: []results.TopologyMember{{Name: "a:1", State: "PRIMARY"}, {Name: "b:1", State: "SECONDARY"}, {Name: "c:1", State: "ARBITER"}}},
				Absent: []string{"version", "featureCompatibilityVersion", "storageEngine", "cacheBytes", "blockCompressor", "networkCompressors", "host"}},
			notes: []string{"replSetGetStatus:", "hello's"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := time.Date(2026, 11, 23, 5, 0, 0, 0, time.UTC)
			got := Gather(context.Background(), tt.f(t), at)
			if !got.At.Equal(at) {
				t.Errorf("At = %v", got.At)
			}
			notes := got.Notes
			got.At, got.Notes = time.Time{}, nil
			if got.Host != nil {
				got.Host.Hostname, got.Host.CPUArch, got.Host.OS = "", "", ""
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("got  %+v\nwant %+v\nhost %+v vs %+v\ntopology %+v vs %+v", *got, tt.want, got.Host, tt.want.Host, got.Topology, tt.want.Topology)
			}
			joined := strings.Join(notes, "\n")
			if tt.noteless && joined != "" {
				t.Errorf("unexpected notes: %s", joined)
			}
			for _, n := range tt.notes {
				if !strings.Contains(joined, n) {
					t.Errorf("no note says %q: %s", n, joined)
				}
			}
		})
	}
}

func TestCollStats(t *testing.T) {
	st, bc := ParseCollStats(fixture(t, "secantus-collstats.json"))
	if *st.Count != 200 || *st.DataSize != 9800 || *st.StorageSize != 9800 || *st.TotalIndexSize != 6094 || *st.AvgObjSize != 49 ||
		st.IndexSizes["a_1"] != 3494 || bc != "" {
		t.Errorf("secantus collStats: %+v %v, compressor %q", st, st.IndexSizes, bc)
	}
	// mongod 7.0 reports the creation string, and a sharded collection.
	st, bc = ParseCollStats(doc(t, `{"sharded": true, "count": 14591, "size": 28088508, "storageSize": 15900672, "totalIndexSize": 4943872,
		"avgObjSize": 1925, "indexSizes": {"_id_": 659456}, "wiredTiger": {"creationString": "access_pattern_hint=none,allocation_size=4KB,block_compressor=zstd,cache_resident=false"}}`))
	if !st.Sharded || *st.Count != 14591 || bc != "zstd" {
		t.Errorf("mongod collStats: %+v, compressor %q", st, bc)
	}
	// $collStats on two shards adds up.
	st, _ = ParseCollStatsStage(doc(t, `{"cursor": {"firstBatch": [
		{"shard": "a", "storageStats": {"count": 10, "size": 1000, "storageSize": 500, "totalIndexSize": 100, "indexSizes": {"_id_": 100}}},
		{"shard": "b", "storageStats": {"count": 30, "size": 3000, "storageSize": 1500, "totalIndexSize": 300, "indexSizes": {"_id_": 300}}}]}}`))
	if *st.Count != 40 || *st.DataSize != 4000 || *st.AvgObjSize != 100 || st.IndexSizes["_id_"] != 400 || !st.Sharded {
		t.Errorf("$collStats over two shards: %+v %v", st, st.IndexSizes)
	}
}

func TestBlockCompressorOf(t *testing.T) {
	tests := []struct{ in, want string }{
		{"allocation_size=4KB,block_compressor=snappy,cache_resident=false", "snappy"}, // the default
		{"block_compressor=zstd", "zstd"},                                              // first in the string
		{"a=1,block_compressor=,b=2", "none"},                                          // compression off
		{"a=1,prefix_block_compressor=zlib", ""},                                       // another key ending alike
		{"", ""},                                                                       // not reported
	}
	for _, tt := range tests {
		if got := BlockCompressorOf(tt.in); got != tt.want {
			t.Errorf("BlockCompressorOf(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
