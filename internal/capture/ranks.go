package capture

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// A field with more distinct values than an enum holds (50 organisations,
// 10,000 customers) is often far from uniform: a hot tenant may hold a
// third of the documents and of the lookups. A uniform pattern or range
// would make it one of many, so such a field keeps its frequency law over
// ranks instead: rank 0 is the most frequent value, and each rank is
// written as a synthetic name (org-0000, org-0001, ... or 1, 2, ... for
// integers), never as the value it stands for. The documents' template
// draws ranks with the sampled documents' weights; a lookup by the field
// draws them with the lookups' own weights, over the same names, so the
// hot value of the lookups finds the documents of its rank.
//
// The law is empirical over the head (every value seen twice or more, in
// the sample or in the lookups) and uniform over the tail: the values seen
// once and those the sample missed, as many as Chao's estimator of the
// number of distinct values says (Chao, Scand. J. Statist. 11, 1984:
// D = d + f1(f1-1) / (2(f2+1)), f1 and f2 the values seen once and twice),
// never more than the unsampled documents could hold.

// rankedMin is the share of a field's observations that must go to
// values seen more than once before its frequency law is kept: below it
// the values are identifiers, as a uniform model already writes them.
const rankedMin = 0.3

// maxHead bounds the ranks written one by one; heavier fields fold the
// rest into the tail.
const maxHead = 1000

// rankLaw is the frequency law of one document field over synthetic names.
type rankLaw struct {
	field  string
	typ    bson.Type      // TypeString, TypeInt32 or TypeInt64
	rank   map[string]int // a value (Field.distinct's key) -> its rank in the head
	head   []float64      // the documents' weight of each head rank
	tail   float64        // the documents' weight of the whole tail
	names  int            // tail ranks: head ranks are 0..len(head)-1, the tail's follow
	prefix string         // strings: prefix, zero-padded rank, suffix
	suffix string
	width  int
	top    float64 // the heaviest value's share of the sampled documents
	dobs   int     // distinct values in the sample
}

// rankLaws picks the fields of each collection (by namespace) that keep
// their frequency law: top-level strings and integers with too many values
// for an enum, repeated in the sample or in the lookups by equality, and
// not made from keys (keys.go).
func rankLaws(shapes []*Shape, cols []*Collection, keys map[string][]keyed) map[string]map[string]*rankLaw {
	holes := map[string]map[string][]*Field{} // ns -> field -> its equality placeholders
	for _, sh := range shapes {
		ns := sh.DB + "." + sh.Coll
		for _, p := range sh.HoleOrder {
			if field, eq := lookupField(matchAsFilter(p)); eq {
				if holes[ns] == nil {
					holes[ns] = map[string][]*Field{}
				}
				holes[ns][field] = append(holes[ns][field], sh.Holes[p])
			}
		}
	}
	out := map[string]map[string]*rankLaw{}
	for _, c := range cols {
		ns := c.DB + "." + c.Name
		for _, name := range c.Root.Order {
			if slices.ContainsFunc(keys[ns], func(k keyed) bool { return k.field == name }) {
				continue
			}
			if law := newRankLaw(name, c, holes[ns][name]); law != nil {
				if out[ns] == nil {
					out[ns] = map[string]*rankLaw{}
				}
				out[ns][name] = law
			}
		}
	}
	return out
}

// repeated is the share of f's observations that went to values seen
// more than once; 0 when f kept no counts.
func (f *Field) repeated() float64 {
	counts := f.freq()
	if len(counts) == 0 || f.onlyPlaceholders() {
		return 0
	}
	n, all := 0, 0
	for _, c := range counts {
		all += c
		if c > 1 {
			n += c
		}
	}
	return float64(n) / float64(max(1, all))
}

// freq is how often each value of f was seen (keyed as Field.distinct):
// exact until f had too many distinct values, then counted over its
// reservoir of strings or numbers, a uniform sample of what was seen, so
// that the heaviest values of a field of millions still show; nil when
// neither says.
func (f *Field) freq() map[string]int {
	if f == nil {
		return nil
	}
	if !f.overflow {
		return f.distinct
	}
	out := map[string]int{}
	switch t := f.dominant(); t {
	case bson.TypeString:
		for _, s := range f.strs {
			out[string(append(binary.LittleEndian.AppendUint32([]byte{byte(t)}, uint32(len(s)+1)), s+"\x00"...))]++
		}
	case bson.TypeInt32:
		for _, x := range f.nums {
			out[string(binary.LittleEndian.AppendUint32([]byte{byte(t)}, uint32(int32(x))))]++
		}
	case bson.TypeInt64:
		for _, x := range f.nums {
			out[string(binary.LittleEndian.AppendUint64([]byte{byte(t)}, uint64(int64(x))))]++
		}
	}
	return out
}

func newRankLaw(name string, c *Collection, holes []*Field) *rankLaw {
	f := c.Root.Fields[name]
	counts := f.freq()
	if f == nil || len(counts) == 0 || f.lowCardinality() {
		return nil
	}
	typ := f.dominant()
	if typ != bson.TypeString && typ != bson.TypeInt32 && typ != bson.TypeInt64 || len(f.minorTypes()) > 0 {
		return nil
	}
	hot := f.repeated() >= rankedMin && len(counts) > 32
	for _, h := range holes {
		hot = hot || h.repeated() >= rankedMin
	}
	if !hot {
		return nil
	}
	law := &rankLaw{field: name, typ: typ, rank: map[string]int{}, dobs: len(counts)}
	asked := map[string]int{} // lookups per value, over every placeholder of the field
	for _, h := range holes {
		if h.repeated() > 0 {
			for k, n := range h.freq() {
				if k[0] == byte(typ) {
					asked[k] += n
				}
			}
		}
	}
	var head []string
	f1, f2 := 0, 0 // values of the sample seen once (outside the head), and twice
	for k, n := range counts {
		switch {
		case k[0] != byte(typ):
		case n > 1 || asked[k] > 1:
			head = append(head, k)
		default:
			f1++
		}
		if n == 2 {
			f2++
		}
	}
	for k, n := range asked {
		if n > 1 && counts[k] == 0 {
			head = append(head, k) // hot in the lookups, missed by the sample
		}
	}
	slices.SortFunc(head, func(a, b string) int {
		return cmp.Or(counts[b]-counts[a], asked[b]-asked[a], strings.Compare(a, b))
	})
	law.tail, law.names = float64(f1), f1
	for len(head) > maxHead { // the lightest fold into the tail
		k := head[len(head)-1]
		head = head[:len(head)-1]
		law.tail += float64(counts[k])
		law.names++
	}
	unsampled := 0
	for i, k := range head {
		law.rank[k] = i
		if counts[k] == 0 {
			unsampled++
		}
	}
	law.names += max(0, law.unseen(c, f, f1, f2)-unsampled)
	per := 1.0 // a head value the sample missed: as heavy as one tail value, at most one document
	if law.names > 0 && law.tail > 0 {
		per = min(1, law.tail/float64(law.names))
	}
	for _, k := range head {
		w := float64(counts[k])
		if w == 0 {
			w = per
		}
		law.head = append(law.head, w)
	}
	total := law.tail
	for _, w := range law.head {
		total += w
	}
	if len(law.head) > 0 {
		law.top = law.head[0] / total
	}
	law.naming(f)
	return law
}

// unseen is the estimated number of values the sample did not hold, with
// Chao's bias-corrected estimator, capped by the documents not sampled.
func (law *rankLaw) unseen(c *Collection, f *Field, f1, f2 int) int {
	left := int(c.Count) - c.Sampled
	if left <= 0 {
		return 0
	}
	est := float64(f1) * float64(f1-1) / (2 * float64(f2+1))
	if f.Present > 0 && c.Sampled > 0 {
		left = int(float64(left) * float64(f.Present) / float64(c.Sampled))
	}
	return min(left, int(math.Round(est)))
}

// naming picks how ranks are written: integers count from 1; strings keep
// the constant start of the values' pattern (org-) or an e-mail form, so
// the names look like the field's without being any of its values.
func (law *rankLaw) naming(f *Field) {
	law.width = len(strconv.Itoa(max(1, len(law.head)+law.names-1)))
	if law.typ != bson.TypeString {
		return
	}
	if looksLikeEmail(f.strs) {
		law.suffix = "@example.com"
	} else if p, ok := pattern(f.strs); ok {
		i := strings.IndexAny(p, `#?*\`)
		if i > 0 && p[i] != '\\' {
			law.prefix = p[:i]
		}
	}
	law.prefix += "r" // r for rank: org-r007 is no tenant's name, even where org-007 is one
}

// name writes rank r.
func (law *rankLaw) name(r int) config.Value {
	if law.typ != bson.TypeString {
		return config.Value{Kind: config.KindScalar, Scalar: int64(r + 1)}
	}
	return config.Value{Kind: config.KindScalar, Scalar: fmt.Sprintf("%s%0*d%s", law.prefix, law.width, r, law.suffix)}
}

// tailGen draws a tail rank uniformly: an integer range, or for strings
// the tail's ranks cut into decimal blocks (ranks 120-199 as "org-01##"
// and "org-0###"'s parts), one pattern each, weighted by its size.
func (law *rankLaw) tailGen() config.Value {
	lo, hi := int64(len(law.head)), int64(len(law.head)+law.names) // [lo, hi)
	if law.typ != bson.TypeString {
		name := "int"
		if law.typ == bson.TypeInt64 {
			name = "long"
		}
		return gen(name, param("min", lo+1), param("max", hi))
	}
	var vals []config.Value
	var weights []float64
	for x := lo; x < hi; {
		j, size := 0, int64(1)
		for j < law.width && x%(size*10) == 0 && x+size*10 <= hi {
			j, size = j+1, size*10
		}
		if j == 0 {
			vals, weights = append(vals, law.name(int(x))), append(weights, 1)
		} else {
			digits := fmt.Sprintf("%0*d", law.width, x)
			p := escapePattern(law.prefix) + digits[:law.width-j] + strings.Repeat("#", j) + escapePattern(law.suffix)
			vals, weights = append(vals, gen("pattern", param("pattern", p))), append(weights, float64(size))
		}
		x += size
	}
	if len(vals) == 1 {
		return vals[0]
	}
	return enumOf(vals, weights)
}

func escapePattern(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`#?*\`, s[i]) >= 0 {
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// law writes ranks with weights: the head's that weigh something, and the
// tail as one value of weight tail.
func (law *rankLaw) law(head []float64, tail float64) config.Value {
	var vals []config.Value
	var weights []float64
	for r, w := range head {
		if w > 0 {
			vals, weights = append(vals, law.name(r)), append(weights, round(w, 4))
		}
	}
	switch {
	case tail > 0 && law.names > 0:
		vals, weights = append(vals, law.tailGen()), append(weights, round(tail, 4))
	case tail > 0: // lookups of values no sampled document holds: a name none holds
		vals, weights = append(vals, law.name(len(law.head))), append(weights, round(tail, 4))
	}
	if len(vals) == 0 {
		return law.name(0)
	}
	return enumOf(vals, weights)
}

// docGen is the documents' generator of the field.
func (law *rankLaw) docGen() config.Value { return law.law(law.head, law.tail) }

// lookupGen is a lookup's generator: the ranks of the values it was run
// with, weighted by how often; values outside the head go to the tail. A
// placeholder that kept no counts draws as the documents do.
func (law *rankLaw) lookupGen(h *Field) config.Value {
	counts := h.freq()
	if len(counts) == 0 || h.onlyPlaceholders() {
		return law.docGen()
	}
	head := make([]float64, len(law.head))
	tail := 0.0
	for k, n := range counts {
		if r, ok := law.rank[k]; ok {
			head[r] += float64(n)
		} else {
			tail += float64(n)
		}
	}
	return law.law(head, tail)
}

// note says how the field was written, for the collection's comments.
func (law *rankLaw) note(path string) string {
	return fmt.Sprintf("%s: %d distinct values in the sample, the most frequent %.1f%% of the documents: written as its frequency law over ranks (synthetic names, not the values): %d ranks with their weights, then %d more drawn uniformly (the values seen once, and those the sample missed by Chao's estimate); lookups by %s draw the same names with the lookups' own weights",
		path, law.dobs, law.top*100, len(law.head), law.names, path)
}

// matchAsFilter reads the placeholder of a pipeline's first-level $match
// (pipeline.0.$match.org) as a filter's (filter.org): a lookup all the same.
func matchAsFilter(path string) string {
	if rest, ok := strings.CutPrefix(path, "pipeline."); ok {
		if _, m, ok := strings.Cut(rest, ".$match."); ok {
			return "filter." + m
		}
	}
	return path
}
