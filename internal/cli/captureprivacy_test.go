package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestCapturePrivacyOnARealServer: documents seeded with emails, names,
// social security and card numbers, birth dates, password hashes and API
// keys; an application queries them in every shape a command can hold a
// literal in (filters, $addFields, $lookup's pipeline, $facet, an
// $elemMatch projection, a sort, an update's $set, count, a delete), five
// emails twelve times each; capture reads the profiler and samples the
// collection. No seeded value is in the workload file or the summary,
// whatever the stage; with --keep-values the queried ones are.
func TestCapturePrivacyOnARealServer(t *testing.T) {
	uri := testserver.URI(t)
	ctx := context.Background()
	cl := connectTest(t, ctx, uri)
	db := profiledDatabase(t, cl, "cappii")
	first := []string{"Guinevere", "Horatio", "Isolde", "Bartholomew", "Ottoline", "Peregrine", "Wilhelmina", "Lysander"}
	last := []string{"Przybylski", "Featherstonehaugh", "Quixley", "Abernathy", "Vandermolen", "Okonkwo", "Castellanos", "Zielinski"}
	var secrets []string // every private value seeded
	var docs bson.A
	person := func(i int) (email, name, ssn, token, hash string, card int64, dob time.Time) {
		return fmt.Sprintf("person%d.x@secretcorp-example.org", i), first[i%8] + " " + last[(i/8)%8],
			fmt.Sprintf("%03d-%02d-%04d", 100+i, 10+i%90, 1000+7*i), fmt.Sprintf("sk_live_%08x%016x", i*7919, uint64(i)*0x9e3779b97f4a7c15),
			fmt.Sprintf("$2b$12$%022dSECRETHASH%d", i, i), 4111222233330001 + int64(i)*7, time.Date(1950+i%50, time.Month(2+i%10), 2+i%27, 0, 0, 0, 0, time.UTC)
	}
	for i := range 64 {
		email, name, ssn, token, hash, card, dob := person(i)
		secrets = append(secrets, email, name, ssn, token, hash, fmt.Sprint(card), dob.Format("2006-01-02"))
		docs = append(docs, bson.D{{Key: "_id", Value: i}, {Key: "email", Value: email}, {Key: "name", Value: name}, {Key: "ssn", Value: ssn},
			{Key: "token", Value: token}, {Key: "passwordHash", Value: hash}, {Key: "card", Value: card}, {Key: "dob", Value: dob},
			{Key: "status", Value: []string{"a", "b", "c"}[i%3]}, {Key: "contacts", Value: bson.A{bson.D{{Key: "email", Value: email}}}}})
	}
	run := func(cmd bson.D) {
		t.Helper()
		if _, err := cl.Command(ctx, db, cmd); err != nil {
			t.Fatalf("%v: %v", cmd, err)
		}
	}
	run(bson.D{{Key: "insert", Value: "people"}, {Key: "documents", Value: docs}})
	run(bson.D{{Key: "insert", Value: "orders"}, {Key: "documents", Value: bson.A{bson.D{{Key: "customer", Value: "x"}}}}})
	if err := cl.SetProfiler(ctx, db, mongodb.ProfilerState{Level: 2, SlowMS: 100, SampleRate: 1}); err != nil {
		t.Fatal(err)
	}
	agg := func(stages ...bson.D) bson.D {
		p := bson.A{}
		for _, s := range stages {
			p = append(p, s)
		}
		return bson.D{{Key: "aggregate", Value: "people"}, {Key: "pipeline", Value: p}, {Key: "cursor", Value: bson.D{}}}
	}
	find := func(filter bson.D, more ...bson.E) bson.D {
		return append(bson.D{{Key: "find", Value: "people"}, {Key: "filter", Value: filter}}, more...)
	}
	for k := range 5 { // five customers, looked up twelve times each
		email, name, _, _, _, _, _ := person(k)
		for range 12 {
			run(find(bson.D{{Key: "email", Value: email}}))
			run(find(bson.D{{Key: "name", Value: name}}))
		}
	}
	for k := 10; k < 14; k++ {
		email, name, ssn, token, hash, card, dob := person(k)
		run(find(bson.D{{Key: "ssn", Value: ssn}}))
		run(find(bson.D{{Key: "card", Value: card}}))
		run(find(bson.D{{Key: "dob", Value: dob}}))
		run(find(bson.D{{Key: "passwordHash", Value: hash}}))
		run(agg(bson.D{{Key: "$match", Value: bson.D{{Key: "status", Value: "a"}}}}, bson.D{{Key: "$addFields", Value: bson.D{{Key: "vip", Value: bson.D{{Key: "$eq", Value: bson.A{"$email", email}}}}}}}))
		run(agg(bson.D{{Key: "$lookup", Value: bson.D{{Key: "from", Value: "orders"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$match", Value: bson.D{{Key: "customer", Value: name}}}}}}, {Key: "as", Value: "o"}}}}))
		run(agg(bson.D{{Key: "$facet", Value: bson.D{{Key: "t", Value: bson.A{bson.D{{Key: "$match", Value: bson.D{{Key: "token", Value: token}}}}}}}}}))
		run(find(bson.D{{Key: "status", Value: "b"}}, bson.E{Key: "projection", Value: bson.D{{Key: "contacts", Value: bson.D{{Key: "$elemMatch", Value: bson.D{{Key: "email", Value: email}}}}}}}, bson.E{Key: "sort", Value: bson.D{{Key: "dob", Value: -1}}}))
		run(bson.D{{Key: "count", Value: "people"}, {Key: "query", Value: bson.D{{Key: "ssn", Value: ssn}}}})
		run(bson.D{{Key: "update", Value: "people"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "email", Value: email}}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "note", Value: "called " + name}}}}}}}}})
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "w.yaml")
	code, stdout, errs := runCLI(t, ctx, nil, "capture", "--uri", uri, "--database", db, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, errs)
	}
	text, _ := os.ReadFile(out)
	all := string(text) + stdout + errs
	for _, s := range secrets {
		if strings.Contains(all, s) {
			t.Errorf("%q left the source (file or summary)", s)
		}
	}
	for _, part := range []string{"secretcorp-example", "SECRETHASH", "Przybylski", "Featherstonehaugh", "4111222233"} {
		if strings.Contains(all, part) {
			t.Errorf("%q left the source (file or summary)", part)
		}
	}
	if t.Failed() {
		t.Logf("the file:\n%s\nthe summary:\n%s", text, stdout)
	}
	if code, o, e := runCLI(t, ctx, nil, "validate", out); code != 0 {
		t.Errorf("the file does not validate: %s%s", o, e)
	}
	kept := filepath.Join(dir, "kept.yaml")
	if code, o, e := runCLI(t, ctx, nil, "capture", "--uri", uri, "--database", db, "--keep-values", "--out", kept); code != 0 {
		t.Fatalf("--keep-values: exit %d: %s%s", code, o, e)
	}
	ktext, _ := os.ReadFile(kept)
	if email, _, _, _, _, _, _ := person(0); !strings.Contains(string(ktext), email) {
		t.Errorf("--keep-values did not write the emails looked up")
	}
}
