package source

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestFastExtJSONIsTheDrivers: every line of the logs and exports at hand
// (the real mongod logs of the corpus when present) converts to the very
// bytes the driver's reader makes, or is left to the driver; the oracle is
// bson.UnmarshalExtJSON.
func TestFastExtJSONIsTheDrivers(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/*")
	real, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", "shared", "realformats", "logs", "*"))
	paths = append(paths, real...)
	lines := [][]byte{
		[]byte(`{"a":1,"b":-2147483649,"c":1.5,"d":1e3,"e":"x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00","f":[true,false,null,[],{}],"g":{"$date":"2024-03-01T10:11:12.123+01:00"}}`),
		[]byte(`{"n":{"$numberLong":"9007199254740993"},"i":{"$numberInt":"-7"},"x":{"$numberDouble":"NaN"},"y":{"$numberDouble":"-Infinity"},"m":{"$numberDecimal":"1.10"},"o":{"$oid":"0123456789abcdef01234567"}}`),
		[]byte(`{"q":{"$gt":{"$date":{"$numberLong":"-5"}}},"r":{"$regex":"^a","$options":"i"},"s":{"$binary":{"base64":"AA==","subType":"00"}}}`),
		[]byte(`  {"k":"caf\u00e9", "z": 0, "w": -0, "big": 12345678901234567890}  `),
		[]byte(`{"t":{"$date":"not a date"}}`), []byte(`{"u":{"$uuid":"6b1f3c1e-3f3a-4c5e-9a57-2f1e3c1e3f3a"},"ts":{"$timestamp":{"t":1710773367,"i":3}},"ts2":{"$timestamp":{"i":1,"t":2}},"b":{"$binary":{"subType":"4","base64":"ax88Hj86TF6aVy8ePB4/Og=="}}}`), []byte(`{"a":}`), []byte(`not json`), []byte(`{"a":1}x`), []byte(`{"$oid":"0123456789abcdef01234567"}`),
	}
	synthetic := len(lines)
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(maybeGzip(f))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			lines = append(lines, bytes.Clone(sc.Bytes()))
		}
		f.Close()
	}
	fast, fileFast := 0, 0
	for i, l := range lines {
		var want bson.Raw
		werr := bson.UnmarshalExtJSON(l, false, &want)
		got, err := fastExtJSON(nil, l)
		if err == nil {
			fast++
			if i >= synthetic {
				fileFast++
			}
			if werr != nil || !bytes.Equal(got, want) {
				t.Errorf("%s\n fast   %v\n driver %v (%v)", l, bson.Raw(got), want, werr)
			}
		}
		if only, err := fastExtJSONOnly(nil, l, logFields); err == nil && werr == nil && !bytes.Equal(only, keepOnly(t, want, logFields)) {
			t.Errorf("%s\n only %v\n want %v", l, bson.Raw(only), keepOnly(t, want, logFields))
		}
		got, err = parseLine(nil, l)
		if (err == nil) != (werr == nil) || err == nil && !bytes.Equal(got, want) {
			t.Errorf("parseLine(%s) = %v, %v; the driver: %v, %v", l, bson.Raw(got), err, want, werr)
		}
	}
	if files := len(lines) - synthetic; fileFast < files*9/10 {
		t.Errorf("only %d lines of the files' %d on the fast path", fileFast, files)
	}
	t.Logf("%d lines, %d on the fast path", len(lines), fast)
}

// keepOnly is d with only the fields named, by bson.D: the oracle of the
// converter's selection.
func keepOnly(t *testing.T, d bson.Raw, only fields) bson.Raw {
	out := bson.D{}
	els, _ := d.Elements()
	for _, e := range els {
		sub, ok := only[e.Key()]
		if !ok {
			continue
		}
		v := e.Value()
		if doc, isDoc := v.DocumentOK(); isDoc && sub != nil {
			out = append(out, bson.E{Key: e.Key(), Value: keepOnly(t, doc, sub)})
			continue
		}
		out = append(out, bson.E{Key: e.Key(), Value: v})
	}
	raw, err := bson.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
