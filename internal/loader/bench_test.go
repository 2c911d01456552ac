package loader

import (
	"testing"

	"github.com/mongoload/mongoload/internal/builtin"
	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

// ycsbTemplate is a YCSB record: _id "user" + number and ten 100-byte fields.
const ycsbTemplate = `{_id: {$gen: key, as: string, prefix: user},
  field0: {$gen: binary, length: 100}, field1: {$gen: binary, length: 100},
  field2: {$gen: binary, length: 100}, field3: {$gen: binary, length: 100},
  field4: {$gen: binary, length: 100}, field5: {$gen: binary, length: 100},
  field6: {$gen: binary, length: 100}, field7: {$gen: binary, length: 100},
  field8: {$gen: binary, length: 100}, field9: {$gen: binary, length: 100}}`

func defaultCollection(b *testing.B) *workload.Collection {
	data, _ := builtin.Get("default")
	_, p := workloadtest.Compile(b, data, "builtin:default")
	return p.Collections[0]
}

// BenchmarkGenerate measures document generation the way a load worker
// does it (one document per key, reseeded, into a reused batch buffer):
// ns/op is per document on one core, so 1e9/(ns/op) is documents per
// second per core, which must stay far above what the server accepts.
// It must not allocate.
func BenchmarkGenerate(b *testing.B) {
	for _, bc := range []struct {
		name string
		col  func(b *testing.B) *workload.Collection
	}{
		{"default", defaultCollection},
		{"ycsb", func(b *testing.B) *workload.Collection { return testCollection(b, ycsbTemplate) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			col := bc.col(b)
			st := generate.NewState(1, 1)
			const batch = 1000
			buf := make([]byte, 0, 4<<20)
			docs := make([][]byte, 0, batch)
			b.ReportAllocs()
			b.ResetTimer()
			var bytes int
			for i := 0; i < b.N; i += batch {
				buf, docs = buf[:0], docs[:0]
				n := min(batch, b.N-i)
				for k := range n {
					st.BeginDocument(col.Keys, int64(i+k), 1, 1700000000)
					at := len(buf)
					buf = col.Doc.Append(buf, st)
					docs = append(docs, buf[at:len(buf):len(buf)])
				}
				bytes += len(buf)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
			b.ReportMetric(float64(bytes)/float64(b.N), "B/doc")
		})
	}
}
