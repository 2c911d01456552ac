package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// WriteComparisonConsole writes a comparison as aligned text.
func WriteComparisonConsole(w io.Writer, c *results.Comparison) error {
	ew := &errWriter{w: w}
	ew.printf("comparison against %s (the baseline), %s\n\n", c.Inputs[c.Baseline].Label, c.At)
	comparisonTable(c).write(ew, "")
	writeObjectives(ew, c, false)
	writeStages(ew, c, false)
	writeNotes(ew, c.Notes, false)
	return ew.err
}

// WriteComparisonMarkdown writes a comparison as Markdown.
func WriteComparisonMarkdown(w io.Writer, c *results.Comparison) error {
	ew := &errWriter{w: w}
	ew.printf("## Comparison against %s (baseline)\n\nLatencies %s.\n\n", mdEscape(c.Inputs[c.Baseline].Label), mdEscape(c.At))
	comparisonTable(c).markdown(ew)
	writeObjectives(ew, c, true)
	writeStages(ew, c, true)
	writeNotes(ew, c.Notes, true)
	return ew.err
}

func comparisonTable(c *results.Comparison) *table {
	t := &table{left: 1}
	head := []string{"metric"}
	for i, in := range c.Inputs {
		head = append(head, in.Label)
		if i != c.Baseline {
			head = append(head, "change")
		}
	}
	t.add(head...)
	for _, r := range c.Rows {
		row := []string{r.Metric}
		for i, v := range r.Values {
			row = append(row, FormatValue(v, r.Unit))
			if i != c.Baseline {
				row = append(row, changeText(r.Change[i]))
			}
		}
		t.add(row...)
	}
	return t
}

func writeObjectives(ew *errWriter, c *results.Comparison, md bool) {
	if len(c.Objectives) == 0 {
		return
	}
	t := &table{left: 1}
	head := []string{"objective (against the baseline)"}
	for i, in := range c.Inputs {
		if i != c.Baseline {
			head = append(head, in.Label)
		}
	}
	t.add(head...)
	for _, o := range c.Objectives {
		row := []string{o.Text}
		for i, p := range o.Pass {
			if i == c.Baseline {
				continue
			}
			row = append(row, passText(p))
		}
		t.add(row...)
	}
	meet := c.MeetingAll()
	verdict := "no option meets every objective"
	if len(meet) > 0 {
		verdict = "meets every objective: " + strings.Join(meet, ", ")
	}
	if md {
		ew.printf("\n### Objectives\n\n")
		t.markdown(ew)
		ew.printf("\n**%s**\n", mdEscape(verdict))
		return
	}
	ew.printf("\n")
	t.write(ew, "")
	ew.printf("%s\n", verdict)
}

// writeStages writes the growth-stage table of compare --users.
func writeStages(ew *errWriter, c *results.Comparison, md bool) {
	p := c.Users
	if p == nil {
		return
	}
	intro := fmt.Sprintf("%s users are served by the baseline %s's %s (%.1f ops/s); each stage gets the cheapest input carrying it with %.0f%% headroom",
		results.Target(p.Users), c.Inputs[c.Baseline].Label, p.Basis, p.BaseThroughput, 100*p.Headroom)
	if len(c.Objectives) > 0 {
		intro += " that meets every objective"
	}
	t := stageTable(c)
	if md {
		ew.printf("\n### Growth stages\n\n%s.\n\n", mdEscape(intro))
		t.markdown(ew)
		if p.ReliableWhy != "" {
			ew.printf("\n**%s**\n", mdEscape(p.ReliableWhy))
		}
		return
	}
	ew.printf("\ngrowth stages: %s.\n", intro)
	t.write(ew, "")
	if p.ReliableWhy != "" {
		ew.printf("%s\n", p.ReliableWhy)
	}
}

// stageTable is the growth stages as a table: users, the choice, its
// capacity in users, its monthly cost and the cost per 1,000 users.
func stageTable(c *results.Comparison) *table {
	cur := c.Users.Currency
	t := &table{left: 1, textLast: true}
	t.add("users", "choice", "capacity (users)", strings.TrimSpace("monthly "+cur), strings.TrimSpace("per 1,000 users "+cur), "reliable", "note")
	for _, st := range c.Users.Stages {
		if st.Input == nil {
			t.add(results.Target(st.Users), "none", "-", "-", "-", "-", st.Note)
			continue
		}
		t.add(results.Target(st.Users), st.Choice, results.Target(math.Round(st.Capacity)), FormatValue(st.Monthly, cur), FormatValue(st.PerThousand, cur), dash(results.ReliableText(st.Reliable)), st.Note)
	}
	return t
}

func passText(p *bool) string {
	switch {
	case p == nil:
		return "-"
	case *p:
		return "yes"
	}
	return "NO"
}

// FormatValue formats a comparison value in its unit for a table.
func FormatValue(v *float64, unit string) string {
	if v == nil {
		return "-"
	}
	switch unit {
	case "ms":
		return msFixed(*v)
	case "ops/s":
		return results.Whole(*v)
	case "%":
		return fmt.Sprintf("%.2f%%", *v)
	case "workers", "sessions", "rate":
		return results.Target(*v)
	case "users":
		return results.Target(math.Round(*v))
	}
	if strings.HasPrefix(unit, "ops/s per 100 ") {
		return fmt.Sprintf("%.1f", *v)
	}
	return costText(*v) // a cost in its currency
}

func changeText(p *float64) string {
	if p == nil {
		return "-"
	}
	if *p > -0.05 && *p < 0.05 {
		return "0%"
	}
	return fmt.Sprintf("%+.1f%%", *p)
}
