package source

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// benchLines are the slow-query lines of the real logs (the corpus when
// present, else the testdata log): what capture --log parses.
func benchLines(b *testing.B) ([][]byte, int64) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", "shared", "realformats", "logs", "*"))
	if len(paths) == 0 {
		paths = []string{"../testdata/mongod.log"}
	}
	var lines [][]byte
	var size int64
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			if bytes.Contains(sc.Bytes(), []byte(`"id":51803`)) {
				lines = append(lines, bytes.Clone(sc.Bytes()))
				size += int64(len(sc.Bytes()) + 1)
			}
		}
		f.Close()
	}
	return lines, size
}

// BenchmarkParseLogLine: capture's reader (only the fields it uses),
// the same converting every field, the driver's extended-JSON reader, and
// encoding/json into the fields capture uses (bench/capture runs it).
func BenchmarkParseLogLine(b *testing.B) {
	lines, size := benchLines(b)
	type attr struct {
		Type     string          `json:"type"`
		NS       string          `json:"ns"`
		AppName  string          `json:"appName"`
		Command  json.RawMessage `json:"command"`
		Origin   json.RawMessage `json:"originatingCommand"`
		Returned int64           `json:"nreturned"`
		Inserted int64           `json:"ninserted"`
		Millis   int64           `json:"durationMillis"`
		Plan     string          `json:"planSummary"`
	}
	type line struct {
		T    map[string]any `json:"t"`
		Ctx  string         `json:"ctx"`
		Msg  string         `json:"msg"`
		ID   int            `json:"id"`
		Attr attr           `json:"attr"`
	}
	run := func(name string, parse func([]byte) error) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				for _, l := range lines {
					if err := parse(l); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
	run("capture", func(l []byte) error { parseLogLine(l); return nil })
	run("capture-every-field", func(l []byte) error { _, err := parseLine(nil, l); return err })
	run("driver-extjson", func(l []byte) error { var d bson.Raw; return bson.UnmarshalExtJSON(l, false, &d) })
	run("encoding-json", func(l []byte) error { var v line; return json.Unmarshal(l, &v) })
}
