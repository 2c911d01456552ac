package main

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/ycsb"
)

// drawMongoload draws a case from mongoload: the YCSB properties go
// through the same translation as `mongoload run -P` (ycsb.Load), the
// result is compiled into a plan (workload.Compile), and the draws come
// from the plan's own generators and operation mix, as a run makes them.
func drawMongoload(c *fidelityCase, seed uint64) (*drawn, error) {
	d := &drawn{hist: map[string]int64{}, nums: map[string]float64{}}
	if c.kind == "zipfian" { // not a YCSB request distribution: the generator itself
		z := generate.NewZipfian(generate.ZipfianConstant)
		st := generate.NewState(seed, 1)
		for range c.draws {
			d.hist[strconv.FormatInt(z.Next(st.Rand, records), 10)]++
		}
		return d, nil
	}
	cfg, _, _, err := ycsb.Load(nil, c.props)
	if err != nil {
		return nil, err
	}
	if es := cfg.Validate(); len(es) > 0 { // defaults, as a run's configuration gets them
		return nil, es
	}
	plan, err := workload.Compile(cfg)
	if err != nil {
		return nil, err
	}
	col := plan.Collections[0]
	st := generate.NewState(seed, 1)
	byName := map[string]*workload.Op{}
	for _, op := range plan.Ops {
		byName[op.Name] = op
	}
	recordCount := int64(0)
	if c.kind != "keynames" && c.kind != "records" {
		recordCount = records // the records loaded before the run
	}
	col.Keys.Reset(0, recordCount)
	var buf []byte
	readKey := func() (int64, error) {
		buf = byName[ycsb.OpRead].Filter.Append(buf[:0], st)
		return keyNumber(bson.Raw(buf).Lookup("_id").StringValue())
	}
	switch c.kind {
	case "keys", "sequence":
		for range c.draws {
			k, err := readKey()
			if err != nil {
				return nil, err
			}
			if c.kind == "sequence" {
				d.seq = append(d.seq, strconv.FormatInt(k, 10))
			} else {
				d.hist[strconv.FormatInt(k, 10)]++
			}
		}
	case "latest", "mixkeys":
		for range c.draws {
			if op := plan.Ops[plan.Mix.Pick(st.Rand)]; op.Name == ycsb.OpInsert {
				buf = op.Document.Append(buf[:0], st) // takes the next key
				continue
			}
			k, err := readKey()
			if err != nil {
				return nil, err
			}
			if c.kind == "latest" {
				_, end := col.Keys.Bounds()
				k = end - 1 - k // recency
			}
			d.hist[strconv.FormatInt(k, 10)]++
		}
	case "fieldlength":
		for range c.draws {
			buf = col.Doc.Append(buf[:0], st)
			_, b := bson.Raw(buf).Lookup("field0").Binary()
			d.hist[strconv.Itoa(len(b))]++
		}
	case "scanlength":
		lim := byName[ycsb.OpScan].LimitGen
		for range c.draws {
			typ, v := lim.Append(buf[:0], st)
			n, ok := bson.RawValue{Type: typ, Value: v}.AsInt64OK()
			if !ok {
				return nil, fmt.Errorf("scan limit of type %v", typ)
			}
			d.hist[strconv.FormatInt(n, 10)]++
		}
	case "operations":
		for range c.draws {
			d.hist[ycsbOpName(plan.Ops[plan.Mix.Pick(st.Rand)].Name)]++
		}
	case "keynames":
		for range c.draws {
			buf = col.Doc.Append(buf[:0], st)
			d.seq = append(d.seq, bson.Raw(buf).Lookup("_id").StringValue())
		}
	case "records":
		var all bytes.Buffer
		var printable, total int64
		for range c.draws {
			doc := col.Doc.Append(nil, st)
			all.Write(doc)
			elems, _ := bson.Raw(doc).Elements()
			for _, e := range elems {
				if _, b, ok := e.Value().BinaryOK(); ok {
					for _, x := range b {
						total++
						if x >= 32 && x < 128 {
							printable++
						}
					}
				}
			}
		}
		var z bytes.Buffer
		w := zlib.NewWriter(&z) // zlib, its default level (6), as Java's Deflater
		w.Write(all.Bytes())
		w.Close()
		d.nums[c.name+".bson"] = float64(all.Len()) / float64(c.draws)
		d.nums[c.name+".zlib"] = float64(z.Len()) / float64(c.draws)
		d.nums[c.name+".printable"] = float64(printable) / float64(total)
	default:
		return nil, fmt.Errorf("unknown kind %q", c.kind)
	}
	return d, nil
}

// keyNumber reads the record number back from an ordered key name.
func keyNumber(name string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimPrefix(name, "user"), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("key %q: not an ordered YCSB key", name)
	}
	return n, nil
}

// ycsbOpName is YCSB's operation chooser's name for a mongoload operation
// (named as YCSB's measurements).
func ycsbOpName(name string) string {
	if name == ycsb.OpReadModifyWrite {
		return "READMODIFYWRITE"
	}
	return name
}
