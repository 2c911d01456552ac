package main

import (
	"fmt"
	"strings"
)

// A fidelityCase is one property checked against YCSB: the properties both
// sides are given, how they draw (kind) and how many times, and how the
// draws are compared.
type fidelityCase struct {
	name  string // the case's id, sent to the Java driver
	label string // the property, as the table shows it
	kind  string // keys, sequence, latest, zipfian, fieldlength, scanlength, operations, keynames, records
	draws int64
	props []string // YCSB properties, key=value
	// compare turns both sides' draws into table rows.
	compare func(c *fidelityCase, y, m *drawn) []row
	// purpose, when set, is why mongoload differs from YCSB on purpose:
	// the rows say so instead of failing.
	purpose string
}

// drawn is what one side drew for a case.
type drawn struct {
	hist map[string]int64 // value -> count
	seq  []string
	nums map[string]float64
}

// records is the record count of the key distribution cases: the 10,000
// keys of the measurement.
const records = 10000

// base are the properties every key case starts from: records loaded in
// order (so a key's number reads back from its name), reads only.
func base(extra ...string) []string {
	return append([]string{
		fmt.Sprintf("recordcount=%d", records), "operationcount=1000000", "insertorder=ordered",
		"readproportion=1", "updateproportion=0",
	}, extra...)
}

// ycsbWorkloads are the mixes of YCSB's workloads/workloada to workloadf,
// as YCSB ships them.
var ycsbWorkloads = []struct{ letter, props string }{
	{"A", "readproportion=0.5 updateproportion=0.5 requestdistribution=zipfian"},
	{"B", "readproportion=0.95 updateproportion=0.05 requestdistribution=zipfian"},
	{"C", "readproportion=1 updateproportion=0 requestdistribution=zipfian"},
	{"D", "readproportion=0.95 updateproportion=0 insertproportion=0.05 requestdistribution=latest"},
	{"E", "readproportion=0 updateproportion=0 scanproportion=0.95 insertproportion=0.05 requestdistribution=zipfian maxscanlength=100 scanlengthdistribution=uniform"},
	{"F", "readproportion=0.5 updateproportion=0 readmodifywriteproportion=0.5 requestdistribution=zipfian"},
}

// wholeKeySpace is why uniform, hotspot and sequential differ once records
// are inserted.
const wholeKeySpace = "request uniform, hotspot and sequential while inserting: YCSB builds them over the records " +
	"loaded (insertstart to insertstart+insertcount-1) and never reads a record the run inserted; mongoload draws " +
	"them over the whole key space, inserts included (a hot set that grows with the data), so that a mixed " +
	"workload's reads reach what it wrote"

// cases lists every property checked, in the table's order.
func cases() []*fidelityCase {
	cs := []*fidelityCase{
		{name: "zipfian-scrambled", label: "request zipfian (scrambled), 10,000 records", kind: "keys", draws: 1_000_000,
			props: base("requestdistribution=zipfian"), compare: compareKeys(topK)},
		{name: "zipfian-inserting", label: "request zipfian while inserting (5% inserts, room for 2 × the inserts expected)", kind: "mixkeys", draws: 200_000,
			props: base("requestdistribution=zipfian", "operationcount=200000", "readproportion=0.95", "insertproportion=0.05"), compare: compareKeys(topK)},
		{name: "zipfian-plain", label: "zipfian, plain (ZipfianGenerator), 10,000 items", kind: "zipfian", draws: 1_000_000,
			props: base(), compare: compareKeys(topK)},
		{name: "latest", label: "request latest while inserting (workload D's mix), recency of the keys read", kind: "latest", draws: 200_000,
			props: base("requestdistribution=latest", "readproportion=0.95", "insertproportion=0.05"), compare: compareLatest, purpose: latestEtaQuirk},
		{name: "hotspot", label: "request hotspot (0.2 of the data, 0.8 of the draws)", kind: "keys", draws: 1_000_000,
			props: base("requestdistribution=hotspot"), compare: compareKeys(shareBelow(records/5, "share on the first 20% of keys"))},
		{name: "uniform", label: "request uniform", kind: "keys", draws: 1_000_000,
			props: base("requestdistribution=uniform"), compare: compareKeys(shareBelow(records/2, "share on the first half of keys"))},
		{name: "exponential", label: "request exponential (95th percentile, frac 0.8571428571)", kind: "keys", draws: 1_000_000,
			props: base("requestdistribution=exponential"), compare: compareKeys(shareAtLeast(records-8571, "share on the newest 85.7% of keys"))},
		{name: "hotspot-inserting", label: "request hotspot while inserting (5% inserts)", kind: "mixkeys", draws: 200_000,
			props:   base("requestdistribution=hotspot", "readproportion=0.95", "insertproportion=0.05"),
			compare: compareKeys(shareAtLeast(records, "share of reads on records inserted during the run")), purpose: wholeKeySpace},
		{name: "uniform-inserting", label: "request uniform while inserting (5% inserts)", kind: "mixkeys", draws: 200_000,
			props:   base("requestdistribution=uniform", "readproportion=0.95", "insertproportion=0.05"),
			compare: compareKeys(shareAtLeast(records, "share of reads on records inserted during the run")), purpose: wholeKeySpace},
		{name: "sequential", label: "request sequential", kind: "sequence", draws: 2*records + 17,
			props: base("requestdistribution=sequential"), compare: compareSequence},
		{name: "fieldlength-constant", label: "field length constant (100)", kind: "fieldlength", draws: 200_000,
			props: base("fieldcount=1", "fieldlength=100", "fieldlengthdistribution=constant"), compare: compareLengths},
		{name: "fieldlength-uniform", label: "field length uniform (1-100)", kind: "fieldlength", draws: 1_000_000,
			props: base("fieldcount=1", "fieldlength=100", "fieldlengthdistribution=uniform"), compare: compareLengths},
		{name: "fieldlength-zipfian", label: "field length zipfian (1-100)", kind: "fieldlength", draws: 1_000_000,
			props: base("fieldcount=1", "fieldlength=100", "fieldlengthdistribution=zipfian"), compare: compareLengths},
		{name: "scanlength-uniform", label: "scan length uniform (1-100)", kind: "scanlength", draws: 1_000_000,
			props: base("readproportion=0", "scanproportion=1", "maxscanlength=100", "scanlengthdistribution=uniform"), compare: compareLengths},
		{name: "scanlength-zipfian", label: "scan length zipfian (1-100)", kind: "scanlength", draws: 1_000_000,
			props: base("readproportion=0", "scanproportion=1", "maxscanlength=100", "scanlengthdistribution=zipfian"), compare: compareLengths},
		{name: "keys-hashed", label: "key names, insertorder=hashed (zeropadding 1)", kind: "keynames", draws: records,
			props: []string{"recordcount=10000", "operationcount=1", "insertorder=hashed"}, compare: compareSequence},
		{name: "keys-hashed-padded", label: "key names, insertorder=hashed, zeropadding=22", kind: "keynames", draws: records,
			props: []string{"recordcount=10000", "operationcount=1", "insertorder=hashed", "zeropadding=22"}, compare: compareSequence},
		{name: "keys-ordered-padded", label: "key names, insertorder=ordered, zeropadding=12", kind: "keynames", draws: records,
			props: []string{"recordcount=10000", "operationcount=1", "insertorder=ordered", "zeropadding=12"}, compare: compareSequence},
	}
	for _, w := range ycsbWorkloads {
		cs = append(cs, &fidelityCase{
			name: "operations-" + w.letter, label: "operations of workload " + w.letter, kind: "operations", draws: 1_000_000,
			props: append([]string{"recordcount=1000", "operationcount=1000"}, strings.Fields(w.props)...), compare: compareOperations,
		})
	}
	cs = append(cs,
		&fidelityCase{name: "record-10x100", label: "record, fieldcount 10 × fieldlength 100", kind: "records", draws: 2000,
			props: []string{"recordcount=2000", "operationcount=1"}, compare: compareRecords},
		&fidelityCase{name: "record-20x50", label: "record, fieldcount 20 × fieldlength 50", kind: "records", draws: 2000,
			props: []string{"recordcount=2000", "operationcount=1", "fieldcount=20", "fieldlength=50"}, compare: compareRecords},
	)
	return cs
}

// spec is the case as the Java driver reads it: NAME KIND DRAWS props...
func (c *fidelityCase) spec() string {
	return fmt.Sprintf("%s %s %d %s", c.name, c.kind, c.draws, strings.Join(c.props, " "))
}
