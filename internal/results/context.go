package results

import "time"

// ServerContext is the deployment a run met, read when the run began:
// what a reader must know before setting two runs side by side (a 7.0 run
// beside an 8.0 one, a 1 GB cache beside a 16 GB one). A fact the server
// did not report, or refused to give, is omitted and named in Absent,
// never given as 0.
type ServerContext struct {
	At time.Time `json:"at"` // when it was read
	// Version is buildInfo.version; FCV is the featureCompatibilityVersion.
	Version string `json:"version,omitempty"`
	FCV     string `json:"featureCompatibilityVersion,omitempty"`
	// StorageEngine is serverStatus.storageEngine.name.
	StorageEngine string `json:"storageEngine,omitempty"`
	// CacheBytes is the WiredTiger cache size.
	CacheBytes *int64 `json:"cacheBytes,omitempty"`
	// BlockCompressor is the collections' block compressor, as configured
	// (getCmdLineOpts) or, failing that, as a workload collection was created
	// with (collStats' creationString).
	BlockCompressor string `json:"blockCompressor,omitempty"`
	// NetworkCompressors are the compressors the server accepts, as configured.
	NetworkCompressors []string   `json:"networkCompressors,omitempty"`
	Topology           *Topology  `json:"topology,omitempty"`
	Host               *HostFacts `json:"host,omitempty"`
	// Absent names the facts that could not be had, as JSON paths such as
	// "host.cores" or "networkCompressors".
	Absent []string `json:"absent,omitempty"`
	// Notes say why, where a command was refused.
	Notes []string `json:"notes,omitempty"`
}

// The topology kinds.
const (
	Standalone = "standalone"
	ReplicaSet = "replicaSet"
	Sharded    = "sharded"
)

// Topology is how the deployment is built.
type Topology struct {
	Kind    string `json:"kind"` // Standalone, ReplicaSet or Sharded
	SetName string `json:"setName,omitempty"`
	// Members are the replica set's members (replSetGetStatus).
	Members []TopologyMember `json:"members,omitempty"`
	// Shards (listShards) and Mongos (config.mongos) of a sharded cluster.
	Shards []Shard  `json:"shards,omitempty"`
	Mongos []string `json:"mongos,omitempty"`
}

// TopologyMember is one replica set member and its state.
type TopologyMember struct {
	Name  string `json:"name"`
	State string `json:"state"` // PRIMARY, SECONDARY, ARBITER, ...
}

// Shard is one shard of a sharded cluster.
type Shard struct {
	ID   string `json:"id"`
	Host string `json:"host"` // setName/host1,host2
}

// HostFacts are what hostInfo says about the server's machine.
type HostFacts struct {
	Hostname string `json:"hostname,omitempty"`
	Cores    *int64 `json:"cores,omitempty"`
	MemoryMB *int64 `json:"memoryMB,omitempty"`
	// MemLimitMB is the memory the server believes it may use (a
	// container's limit); it is worth comparing with CacheBytes.
	MemLimitMB *int64 `json:"memLimitMB,omitempty"`
	CPUArch    string `json:"cpuArch,omitempty"`
	OS         string `json:"os,omitempty"`
}

// CollectionStats is one workload collection's statistics (collStats)
// before and after the measured phase, as in db.collection.stats().
type CollectionStats struct {
	Namespace string     `json:"namespace"`
	Before    *CollStats `json:"before,omitempty"`
	After     *CollStats `json:"after,omitempty"`
	// Unavailable says why a side is missing (the collection did not exist,
	// the command was refused).
	Unavailable string `json:"unavailable,omitempty"`
}

// CollStats is one collStats reading; sizes in bytes, uncompressed for
// DataSize, on disk for StorageSize. A value the server did not report is nil.
type CollStats struct {
	At             time.Time        `json:"at"`
	Count          *int64           `json:"count,omitempty"`
	DataSize       *int64           `json:"dataSize,omitempty"`
	StorageSize    *int64           `json:"storageSize,omitempty"`
	TotalIndexSize *int64           `json:"totalIndexSize,omitempty"`
	AvgObjSize     *int64           `json:"avgObjSize,omitempty"`
	IndexSizes     map[string]int64 `json:"indexSizes,omitempty"`
	Sharded        bool             `json:"sharded,omitempty"`
}

// IntervalClient is mongoload's own CPU use during one interval, beside the
// server's (ServerSample.CPU), so a report can say which side was saturated.
type IntervalClient struct {
	CPUSeconds float64 `json:"cpuSeconds"` // user + system
	// Utilization is CPUSeconds over the interval's length and the CPU
	// the process may use (procstat.AvailableCPU): 1 is all of it busy.
	Utilization float64 `json:"utilization"`
}
