package report_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/results"
	rt "github.com/mongoload/mongoload/internal/results/resultstest"
	"github.com/mongoload/mongoload/internal/sink"
)

// The mix's operations per second, computed from what resultstest recorded:
// transactions and reads, each transaction once whatever its steps.
const mixPerSecond = rt.PayN + rt.LookupN

// TestTransactionIsOneOperation: every figure that adds operations counts a
// transaction once and never its steps; steps keep their own, marked rows.
func TestTransactionIsOneOperation(t *testing.T) {
	res, ivs := rt.Transactions(false)
	wantOps := int64(mixPerSecond * rt.TxnSeconds)
	if res.Totals.Operations != wantOps || res.Totals.Throughput != mixPerSecond || res.Totals.Errors != rt.PayErrors*rt.TxnSeconds {
		t.Errorf("totals %d ops, %.1f/s, %d errors; want %d, %d/s, %d", res.Totals.Operations, res.Totals.Throughput, res.Totals.Errors, wantOps, mixPerSecond, rt.PayErrors*rt.TxnSeconds)
	}
	if got := len(res.MixOperations()); got != 2 {
		t.Errorf("%d mix operations, want pay and lookup", got)
	}

	t.Run("live line", func(t *testing.T) {
		line := sink.LiveLine(results.Summarize(ivs[0], time.Second))
		if !strings.Contains(line, fmt.Sprintf(" %d ops/s ", mixPerSecond)) || strings.Contains(line, "pay/debit") {
			t.Errorf("live line must show %d ops/s and no step:\n%s", mixPerSecond, line)
		}
	})

	t.Run("console", func(t *testing.T) {
		var b bytes.Buffer
		if err := report.WriteConsole(&b, res); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		total := strings.Index(out, "\nTOTAL")
		step := strings.Index(out, "↳ pay/debit")
		if total < 0 || step < total || !strings.Contains(out, report.StepLegend) {
			t.Errorf("steps must follow TOTAL, marked and explained:\n%s", out)
		}
		if !regexp.MustCompile(`\nTOTAL\s+` + results.Thousands(wantOps) + `\s+` + fmt.Sprintf("%d.0", mixPerSecond)).MatchString(out) {
			t.Errorf("TOTAL row must count %d operations at %d/s:\n%s", wantOps, mixPerSecond, out)
		}
	})

	t.Run("markdown", func(t *testing.T) {
		var b bytes.Buffer
		if err := report.WriteResultMarkdown(&b, res); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "| **TOTAL** | "+results.Thousands(wantOps)+" | ") || !strings.Contains(b.String(), "↳ pay/ledger") {
			t.Errorf("markdown TOTAL must count %d and mark steps:\n%s", wantOps, b.String())
		}
	})

	t.Run("csv", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := report.WriteResultCSV(dir, res); err != nil {
			t.Fatal(err)
		}
		f, err := os.ReadFile(filepath.Join(dir, "operations.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(bytes.NewReader(f)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var sum int64
		for _, r := range rows[1:] { // a reader adding the rows that have no parent gets the total
			if r[len(r)-1] == "" {
				n, _ := strconv.ParseInt(r[2], 10, 64)
				sum += n
			}
		}
		if rows[0][len(rows[0])-1] != "parent" || sum != wantOps {
			t.Errorf("operations.csv: rows without a parent add to %d, want %d:\n%s", sum, wantOps, f)
		}
	})

	t.Run("ycsb", func(t *testing.T) {
		var status bytes.Buffer
		s := sink.NewYCSBStatusSink(&status, sink.YCSBStatusOptions{StatusInterval: time.Second, Location: time.UTC})
		for i, iv := range ivs {
			s.Interval(sink.NewSnapshot(iv, time.Duration(i+1)*time.Second))
		}
		_ = s.Close(res)
		done := wantOps + rt.PayErrors*rt.TxnSeconds // YCSB counts failures too
		if !strings.Contains(status.String(), fmt.Sprintf(" %d operations; ", done)) {
			t.Errorf("YCSB status must count %d operations:\n%s", done, status.String())
		}
		var text bytes.Buffer
		if err := report.WriteYCSB(&text, res, report.YCSBOptions{}); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("[OVERALL], Throughput(ops/sec), %d.0\n", done/rt.TxnSeconds); !strings.Contains(text.String(), want) {
			t.Errorf("YCSB text: want %q in\n%s", want, text.String())
		}
	})
}

// TestStepsHaveNoServiceTimeRows: in open loop the service-time table
// lists the mix's operations only; a step's row there would be all zeros.
func TestStepsHaveNoServiceTimeRows(t *testing.T) {
	res, _ := rt.Transactions(true)
	var b bytes.Buffer
	if err := report.WriteConsole(&b, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	i := strings.Index(out, "service time")
	if i < 0 {
		t.Fatalf("no service-time table:\n%s", out)
	}
	svc := out[i:]
	svc = svc[:strings.Index(svc, "\nTOTAL")]
	if strings.Contains(svc, "pay/") || strings.Contains(out, "0.000  0.000  0.000") {
		t.Errorf("the service-time table must not list steps:\n%s", out)
	}
	for _, op := range res.StepOperations() {
		if op.Service != nil {
			t.Errorf("%s has a service time; steps have none of their own", op.Name)
		}
	}
	if want := float64(rt.PayMs - rt.TxnServiceShiftMs); res.Operations[0].Service == nil || res.Operations[0].Service.P50 < want*0.999 || res.Operations[0].Service.P50 > want*1.001 {
		t.Errorf("pay's service time p50 = %+v, want %gms", res.Operations[0].Service, want)
	}
}
