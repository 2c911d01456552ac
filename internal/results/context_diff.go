package results

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// ContextDiff is one fact that differs between two runs' contexts, in the
// words a note gives it.
type ContextDiff struct {
	Field string
	A, B  string // "absent" where one run did not record it
}

// DiffContext lists the facts of two contexts that differ, in a fixed
// order; nil contexts compare as entirely absent.
func DiffContext(a, b *ServerContext) []ContextDiff {
	fa, fb := contextFacts(a), contextFacts(b)
	var out []ContextDiff
	for _, k := range contextFields {
		va, vb := cmp.Or(fa[k], "absent"), cmp.Or(fb[k], "absent")
		if va != vb {
			out = append(out, ContextDiff{Field: k, A: va, B: vb})
		}
	}
	return out
}

var contextFields = []string{"version", "featureCompatibilityVersion", "storageEngine", "cacheBytes", "blockCompressor",
	"networkCompressors", "topology", "host.cores", "host.memoryMB", "host.memLimitMB"}

func contextFacts(c *ServerContext) map[string]string {
	m := map[string]string{}
	if c == nil {
		return m
	}
	m["version"], m["featureCompatibilityVersion"], m["storageEngine"] = c.Version, c.FCV, c.StorageEngine
	if c.CacheBytes != nil {
		m["cacheBytes"] = Bytes(*c.CacheBytes)
	}
	m["blockCompressor"] = c.BlockCompressor
	m["networkCompressors"] = strings.Join(c.NetworkCompressors, ",")
	if t := c.Topology; t != nil {
		s := t.Kind
		switch {
		case t.Kind == Sharded:
			s += fmt.Sprintf(" (%s)", Plural(int64(len(t.Shards)), "shard", "shards"))
		case len(t.Members) > 0:
			s += fmt.Sprintf(" (%s)", Plural(int64(len(t.Members)), "member", "members"))
		}
		m["topology"] = s
	}
	if h := c.Host; h != nil {
		num := func(p *int64) string {
			if p == nil {
				return ""
			}
			return strconv.FormatInt(*p, 10)
		}
		m["host.cores"], m["host.memoryMB"], m["host.memLimitMB"] = num(h.Cores), num(h.MemoryMB), num(h.MemLimitMB)
	}
	return m
}
