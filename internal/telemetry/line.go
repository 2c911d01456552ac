package telemetry

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// Line formats one sample as the --server-stats line, newline included:
//
//	[   5s] server: 8,120 ops/s (q 4,100 i 500 u 2,000 d 900 c 600) cache 210/256MB dirty 3% conn 12/838,860 net 4.1/9.8 MB/s lag - cpu -
//
// Rates are per second of the interval; conn is current/(current +
// available); net is in/out; lag is the largest secondary's. A value the
// server does not report is "-", never 0.
func Line(s results.ServerSample) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%4ds] server: %s", int64(s.T+0.5), opsPart(s))
	b.WriteString(" cache " + cachePart(s.Cache))
	b.WriteString(" conn " + connPart(s.Connections))
	b.WriteString(" net " + netPart(s.Network, s.Dt))
	b.WriteString(" lag " + lagPart(s.Replication))
	b.WriteString(" cpu " + cpuPart(s.CPU, s.Dt))
	b.WriteByte('\n')
	return b.String()
}

func opsPart(s results.ServerSample) string {
	o := s.Opcounters
	if o == nil || s.Dt <= 0 {
		return "- ops/s"
	}
	var total float64
	var parts []string
	for _, c := range []struct {
		short string
		v     *int64
	}{{"q", o.Query}, {"i", o.Insert}, {"u", o.Update}, {"d", o.Delete}, {"c", o.Command}, {"g", o.Getmore}} {
		if c.v == nil {
			parts = append(parts, c.short+" -")
			continue
		}
		total += float64(*c.v)
		if c.short == "g" && *c.v == 0 {
			continue // getmores are rare; shown only when there are some
		}
		parts = append(parts, c.short+" "+perSec(float64(*c.v), s.Dt))
	}
	return perSec(total, s.Dt) + " ops/s (" + strings.Join(parts, " ") + ")"
}

func cachePart(c *results.Cache) string {
	if c == nil || c.BytesInUse == nil {
		return "- dirty -"
	}
	s := mb(*c.BytesInUse)
	if c.MaxBytes != nil {
		s += "/" + mb(*c.MaxBytes)
	}
	s += "MB dirty "
	if c.DirtyBytes != nil && c.MaxBytes != nil && *c.MaxBytes > 0 {
		s += strconv.FormatFloat(100*float64(*c.DirtyBytes)/float64(*c.MaxBytes), 'f', 0, 64) + "%"
	} else {
		s += "-"
	}
	return s
}

func connPart(c *results.Connections) string {
	if c == nil || c.Current == nil {
		return "-"
	}
	if c.Available == nil {
		return thousands(*c.Current) + "/-"
	}
	return thousands(*c.Current) + "/" + thousands(*c.Current+*c.Available)
}

func netPart(n *results.Network, dt float64) string {
	if n == nil || dt <= 0 {
		return "-"
	}
	f := func(v *int64) string {
		if v == nil {
			return "-"
		}
		return strconv.FormatFloat(float64(*v)/dt/1e6, 'f', 1, 64)
	}
	return f(n.BytesIn) + "/" + f(n.BytesOut) + " MB/s"
}

func lagPart(ms []results.MemberLag) string {
	worst := -1.0
	for _, m := range ms {
		if m.LagSeconds != nil {
			worst = max(worst, *m.LagSeconds)
		}
	}
	if worst < 0 {
		return "-"
	}
	return strconv.FormatFloat(worst, 'f', 2, 64) + "s"
}

func cpuPart(c *results.CPU, dt float64) string {
	t, ok := c.Seconds()
	if !ok || dt <= 0 {
		return "-"
	}
	return strconv.FormatFloat(100*t/dt, 'f', 0, 64) + "%"
}

func perSec(n, dt float64) string { return thousands(int64(n/dt + 0.5)) }

func mb(b int64) string { return strconv.FormatInt((b+(1<<19))>>20, 10) }

// thousands formats n with comma separators: 1234567 -> "1,234,567".
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String()
}
