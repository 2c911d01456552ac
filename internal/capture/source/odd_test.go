package source

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exportLine is one profiler document of an export, as mongoexport
// writes it.
func exportLine(op, cmd string) string {
	return fmt.Sprintf(`{"op":%q,"ns":"shop.people","command":%s,"nreturned":1,"millis":0,"ts":{"$date":"2026-11-26T10:00:00Z"}}`, op, cmd) + "\n"
}

// TestOddShapesAreSkippedAndCounted: one operation a workload cannot
// carry (an update pipeline, NaN, an infinity, a date after 9999, a huge
// literal, a pipeline that is not an array) is skipped and counted with
// its reason; the other operations of the export are read.
func TestOddShapesAreSkippedAndCounted(t *testing.T) {
	good := exportLine("query", `{"find":"people","filter":{"status":"a"}}`)
	for _, c := range []struct{ name, line, why string }{
		{"update pipeline", `{"op":"update","ns":"shop.people","command":{"q":{"_id":1},"u":[{"$set":{"t":"$$NOW"}}]},"ts":{"$date":"2026-11-26T10:00:01Z"}}` + "\n", "updates with a pipeline"},
		{"NaN", exportLine("query", `{"find":"people","filter":{"x":{"$numberDouble":"NaN"}}}`), "NaN or infinite"},
		{"-Infinity", exportLine("query", `{"find":"people","filter":{"x":{"$gt":{"$numberDouble":"-Infinity"}}}}`), "NaN or infinite"},
		{"decimal NaN", exportLine("query", `{"find":"people","filter":{"x":{"$numberDecimal":"NaN"}}}`), "NaN or infinite"},
		{"year 10000", exportLine("query", `{"find":"people","filter":{"d":{"$date":{"$numberLong":"253402300800000"}}}}`), "after 9999"},
		{"2 MB literal", exportLine("query", `{"find":"people","filter":{"note":"`+strings.Repeat("x", 2<<20)+`"}}`), "over 1 MiB"},
		{"update without u", `{"op":"update","ns":"shop.people","command":{"q":{"_id":1},"multi":false},"ts":{"$date":"2026-11-26T10:00:01Z"}}` + "\n", "without their update"},
		{"pipeline not an array", exportLine("command", `{"aggregate":"people","pipeline":"notarray","cursor":{}}`), "pipeline is not an array"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &Profiled{}
			if err := p.ReadExport(strings.NewReader(good+c.line+good), "x.json"); err != nil {
				t.Fatal(err)
			}
			if len(p.Ops) != 2 || p.Tally.Read != 3 {
				t.Errorf("%d operations of %d entries, want the 2 good ones of 3", len(p.Ops), p.Tally.Read)
			}
			if s := p.Tally.LeftOut(); !strings.Contains(s, "1 ") || !strings.Contains(s, c.why) {
				t.Errorf("the odd one is not counted with its reason %q: %s", c.why, s)
			}
		})
	}
}

// TestBadPartsOfALog: a gzipped log cut short gives the lines before the
// cut, with a note; a line over the limit is skipped and counted, the
// lines around it are read.
func TestBadPartsOfALog(t *testing.T) {
	line := func(i int) string {
		return fmt.Sprintf(`{"t":{"$date":"2026-11-20T10:00:00.000+00:00"},"s":"I","c":"COMMAND","id":51803,"ctx":"conn1","msg":"Slow query","attr":{"type":"command","ns":"shop.people","command":{"find":"people","filter":{"status":"active","n":%d},"$db":"shop"},"nreturned":3,"durationMillis":120}}`, i) + "\n"
	}
	dir := t.TempDir()
	var all strings.Builder
	for i := range 400 {
		all.WriteString(line(i))
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(all.String()))
	zw.Close()
	cut := filepath.Join(dir, "cut.log.gz")
	os.WriteFile(cut, gz.Bytes()[:gz.Len()*6/10], 0o644)
	src, err := ReadLogs([]string{cut}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if src.Tally.Used < 100 || src.Tally.Used >= 400 || len(src.Tally.Lost) != 1 || !strings.Contains(src.Tally.Lost[0], "cut short") {
		t.Errorf("cut .gz: %d lines used, lost %q; want the readable part and a note", src.Tally.Used, src.Tally.Lost)
	}

	defer func(n int) { maxLine = n }(maxLine)
	maxLine = 4096
	long := filepath.Join(dir, "long.log")
	huge := strings.Replace(line(1), `"status":"active"`, `"status":"`+strings.Repeat("y", 3*maxLine)+`"`, 1)
	os.WriteFile(long, []byte(line(0)+huge+line(2)), 0o644)
	src, err = ReadLogs([]string{long}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if src.Tally.Used != 2 || src.Tally.TooLong != 1 || !strings.Contains(src.Tally.LeftOut(), "1 lines over") {
		t.Errorf("long line: %d used, %d too long (%s); want 2 and 1", src.Tally.Used, src.Tally.TooLong, src.Tally.LeftOut())
	}
}
