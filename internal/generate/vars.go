package generate

import (
	"encoding/binary"
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// Var is one value of a transaction's let: drawn once per transaction and
// read by every step through the var generator ({$var: name}).
type Var struct {
	Type  bson.Type
	Bytes []byte
}

// Let is a transaction's compiled let: names and their generators, in order.
type Let struct {
	Names []string
	gens  []Generator
}

// CompileLet compiles a let mapping (names to templates). The names become
// the Vars a step's templates may read; pass them as Env.Vars.
func CompileLet(v config.Value, env *Env) (*Let, error) {
	l := &Let{}
	for _, f := range v.Fields {
		g, err := Compile(f.Value, env)
		if err != nil {
			return nil, err
		}
		l.Names = append(l.Names, f.Key)
		l.gens = append(l.gens, g)
	}
	return l, nil
}

// Draw draws every value of the let into st.Vars, reusing their buffers.
func (l *Let) Draw(st *State) {
	if cap(st.Vars) < len(l.gens) {
		st.Vars = make([]Var, len(l.gens))
	}
	st.Vars = st.Vars[:len(l.gens)]
	for i, g := range l.gens {
		v := &st.Vars[i]
		v.Type, v.Bytes = g.Append(v.Bytes[:0], st)
	}
}

// varGen appends the value a let drew for this transaction.
type varGen struct {
	index  int
	negate bool
}

func buildVar(p *params) (Generator, error) {
	name := p.str("name", "")
	g := &varGen{index: -1, negate: p.boolean("negate", false)}
	for i, n := range p.c.env.Vars {
		if n == name {
			g.index = i
		}
	}
	if g.index < 0 && p.err == nil {
		if len(p.c.env.Vars) == 0 {
			p.fail(0, "{$var: %s}: variables exist only in the steps of a transaction, drawn by its let", name)
		} else {
			p.fail(0, "{$var: %s}: no such variable in the transaction's let (it has %v)%s", name, p.c.env.Vars, config.DidYouMean(name, p.c.env.Vars))
		}
	}
	return p.done(g)
}

// Append implements Generator. A value that was never drawn (a bug) is null.
func (g *varGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	if g.index >= len(st.Vars) {
		return bson.TypeNull, dst
	}
	v := &st.Vars[g.index]
	if !g.negate {
		return v.Type, append(dst, v.Bytes...)
	}
	switch v.Type {
	case bson.TypeInt32:
		return v.Type, binary.LittleEndian.AppendUint32(dst, uint32(-int32(binary.LittleEndian.Uint32(v.Bytes))))
	case bson.TypeInt64:
		return v.Type, binary.LittleEndian.AppendUint64(dst, uint64(-int64(binary.LittleEndian.Uint64(v.Bytes))))
	case bson.TypeDouble:
		return v.Type, binary.LittleEndian.AppendUint64(dst, math.Float64bits(-math.Float64frombits(binary.LittleEndian.Uint64(v.Bytes))))
	}
	return v.Type, append(dst, v.Bytes...) // not a number: negate has no meaning
}
