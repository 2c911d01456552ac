package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
)

// numbers gathers every invalid numeric value of a command line, so that
// one run of the command names them all (exit 12) rather than the first.
// A value is valid when it is finite and within its range; NaN and the
// infinities never are (NaN compares false with every bound, so each
// check states what it accepts, never what it refuses).
type numbers struct{ errs config.Errors }

// span is a range of valid values: lo and hi, each end open or closed.
type span struct {
	lo, hi         float64
	loOpen, hiOpen bool
	say            string // the range in words, with an example
}

func (s span) holds(v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	aboveLo := v > s.lo || (!s.loOpen && v == s.lo)
	belowHi := v < s.hi || (!s.hiOpen && v == s.hi)
	return aboveLo && belowHi
}

// check adds flag's value shown as text unless v lies in s.
func (n *numbers) check(flag, text string, v float64, s span) {
	if !s.holds(v) {
		n.add(flag, text, s.say)
	}
}

func (n *numbers) add(flag, text, say string) {
	n.errs = append(n.errs, &config.Error{Kind: config.Invalid, Field: "--" + flag, Msg: fmt.Sprintf("%s: %s", text, say)})
}

// float checks a float flag.
func (n *numbers) float(flag string, v float64, s span) {
	n.check(flag, strconv.FormatFloat(v, 'g', -1, 64), v, s)
}

// share reads "5%" or "0.05" and checks it against s; ok is false (and
// the value is named) when it is not a number in range.
func (n *numbers) share(flag, text string, s span) (float64, bool) {
	t := strings.TrimSpace(text)
	pct := strings.HasSuffix(t, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64)
	if pct {
		v /= 100
	}
	if err != nil || !s.holds(v) {
		n.add(flag, strconv.Quote(text), s.say)
		return 0, false
	}
	return v, true
}

// duration reads a duration flag and checks it lies in (0, max].
func (n *numbers) duration(flag, text string, max time.Duration, example string) (config.Duration, bool) {
	t := strings.ToLower(strings.TrimSpace(text))
	say := fmt.Sprintf("write a positive duration of at most %s, such as %s", strings.TrimSuffix(strings.TrimSuffix(max.String(), "0s"), "0m"), example)
	if strings.Contains(t, "nan") || strings.Contains(t, "inf") {
		n.add(flag, strconv.Quote(text), say)
		return 0, false
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil && !(f > 0 && f <= max.Seconds()) { // seconds, checked before the conversion can overflow
		n.add(flag, strconv.Quote(text), say)
		return 0, false
	}
	d, err := config.ParseDuration(text)
	if err != nil || d <= 0 || d.D() > max {
		n.add(flag, strconv.Quote(text), say)
		return 0, false
	}
	return d, true
}

// Err is every invalid value, or nil.
func (n *numbers) Err() error { return n.errs.Err() }

// The ranges of the capacity commands' numeric flags.
var (
	// maxRate bounds a probe's rate: far above what one process sends,
	// far below the overflow of a schedule's arithmetic.
	maxRate      = 1e9
	startSpan    = span{lo: 0, hi: maxRate, loOpen: true, say: "write the first probe's rate in ops/s, above 0 and at most 1e9 (or leave --start out to estimate it)"}
	factorSpan   = span{lo: 1, hi: 100, loOpen: true, say: "write a finite factor above 1 and at most 100 (the climb's multiplier, such as 2)"}
	precSpan     = span{lo: 0, hi: 1, loOpen: true, hiOpen: true, say: "write a share above 0 and below 100%, such as 5% or 0.05"}
	achievedSpan = span{lo: 0, hi: 1, loOpen: true, say: "write a share above 0 and at most 100%, such as 95%"}
	cpuShareSpan = span{lo: 0, hi: 1, loOpen: true, say: "write a share of the cores above 0 and at most 1, such as 0.8"}
	targetSpan   = span{lo: 0, hi: 1, loOpen: true, say: "write the server's CPU as a share of its cores, above 0 and at most 100%, such as 80%"}
)

// maxStep bounds a probe's or a step's measured length.
const maxStep = 24 * time.Hour

// maxProbesLimit bounds --max-probes: a search of more probes than this
// runs for days at any probe length.
const maxProbesLimit = 1000
