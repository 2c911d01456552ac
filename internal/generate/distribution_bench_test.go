package generate

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkDistributions: one draw of each key distribution over a million
// keys; none allocates.
func BenchmarkDistributions(b *testing.B) {
	for _, name := range distributionNames() {
		d := defaultDistribution(b, name)
		b.Run(name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			b.ReportAllocs()
			for b.Loop() {
				d.Next(r, 1_000_000)
			}
		})
	}
}

// BenchmarkYCSBKey: one YCSB record key, "user" + FNV-hashed zipfian draw.
func BenchmarkYCSBKey(b *testing.B) {
	ks := NewKeySpace(0, 1_000_000)
	g := compile(b, `{$gen: key, distribution: zipfian, hashed: true, prefix: user, zeroPadding: 1}`,
		&Env{Mode: Query, KeySpace: func(string) *KeySpace { return ks }})
	st := NewState(1, 1)
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		_, buf = g.Append(buf[:0], st)
	}
}
