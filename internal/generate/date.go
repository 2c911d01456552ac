package generate

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The default range of date: fixed, rather than around the current time,
// so that the same seed gives the same documents on any day.
var (
	defaultDateFrom = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	defaultDateTo   = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
)

// dateGen draws datetimes uniformly, to the millisecond, from [from, to].
type dateGen struct {
	from int64 // Unix milliseconds
	span uint64
}

// Append implements Generator.
func (g *dateGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	return bson.TypeDateTime, appendInt64(dst, uniformInt(st.Rand, g.from, g.span))
}

// buildDate: date {from, to}, a datetime in [from, to].
func buildDate(p *params) (Generator, error) {
	from := p.time("from", defaultDateFrom).UnixMilli()
	to := p.time("to", defaultDateTo).UnixMilli()
	if from > to {
		p.fail(0, "from %s is after to %s", time.UnixMilli(from).UTC().Format(time.RFC3339), time.UnixMilli(to).UTC().Format(time.RFC3339))
	}
	return p.done(&dateGen{from: from, span: spanOf(from, to)})
}

// nowGen is the current time; in a loaded document, the time the load's
// seed fixes (State.nowMillis).
type nowGen struct{}

// Append implements Generator.
func (nowGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	return bson.TypeDateTime, appendInt64(dst, st.nowMillis())
}

// buildNow: now, the current time as a datetime.
func buildNow(p *params) (Generator, error) { return p.done(nowGen{}) }
