package config

import (
	"fmt"
	"slices"
	"strings"
)

// OperationTypes are the operation types a workload may use.
var OperationTypes = []string{
	"find", "findOne", "insertOne", "insertMany", "updateOne", "updateMany",
	"replaceOne", "deleteOne", "deleteMany", "upsert", "findOneAndUpdate",
	"aggregate", "countDocuments", "readModifyWrite", "transaction",
}

// TransactionStyles are the ways a transaction's steps can be sent.
var TransactionStyles = []string{"perOperation", "batched"}

// templateRule says which templates an operation type needs and allows.
type templateRule struct{ required, allowed []string }

var opRules = map[string]templateRule{
	"find":             {allowed: []string{"filter", "projection", "sort", "limit"}},
	"findOne":          {allowed: []string{"filter", "projection", "sort"}},
	"insertOne":        {allowed: []string{"document"}},
	"insertMany":       {allowed: []string{"document", "batchSize"}},
	"updateOne":        {required: []string{"filter", "update"}, allowed: []string{"upsert"}},
	"updateMany":       {required: []string{"filter", "update"}, allowed: []string{"upsert"}},
	"upsert":           {required: []string{"filter", "update"}},
	"replaceOne":       {required: []string{"filter"}, allowed: []string{"document", "upsert"}},
	"deleteOne":        {required: []string{"filter"}},
	"deleteMany":       {required: []string{"filter"}},
	"findOneAndUpdate": {required: []string{"filter", "update"}, allowed: []string{"projection", "sort", "upsert"}},
	"aggregate":        {required: []string{"pipeline"}},
	"countDocuments":   {allowed: []string{"filter", "limit"}},
	// readModifyWrite reads one document (findOne) then updates it with
	// the same filter, timed as one operation (YCSB's READ-MODIFY-WRITE).
	"readModifyWrite": {required: []string{"filter", "update"}, allowed: []string{"projection"}},
}

func (c *Config) validateOperations(add adder) {
	if len(c.Operations) == 0 {
		add(Invalid, 0, "operations", "the workload defines no operation: add one under operations:")
		return
	}
	var total float64
	names := map[string]bool{}
	for i := range c.Operations {
		op := &c.Operations[i]
		field := fmt.Sprintf("operations[%d]", i)
		if op.Name == "" {
			op.Name = fmt.Sprintf("%s_%d", op.Type, i+1)
		}
		if names[op.Name] {
			add(Invalid, op.Line, field+".name", "operation name %q is used twice", op.Name)
		}
		names[op.Name] = true
		total += op.Weight
		if op.Type == "transaction" {
			c.validateTransaction(add, field, op) // each step names its collection
			continue
		}
		c.validateOpCollection(add, field, op)
		rule, ok := opRules[op.Type]
		if !ok {
			add(UnknownOperation, op.Line, field+".type", "unknown operation type %q%s; valid types: %s",
				op.Type, DidYouMean(op.Type, OperationTypes), strings.Join(OperationTypes, ", "))
			continue
		}
		validateTemplates(add, field, op, rule)
	}
	if total <= 0 {
		add(Invalid, c.Operations[0].Line, "operations", "the weights sum to %g: give at least one operation a positive weight", total)
	}
}

func (c *Config) validateOpCollection(add adder, field string, op *Operation) {
	if op.Collection == "" {
		if len(c.Collections) == 1 {
			op.Collection = c.Collections[0].Name
			return
		}
		if len(c.Collections) > 1 {
			add(Invalid, op.Line, field+".collection", "say which collection this operation uses: the workload has %d", len(c.Collections))
		}
		return
	}
	if c.FindCollection(op.Collection) == nil {
		var names []string
		for _, col := range c.Collections {
			names = append(names, col.Name)
		}
		add(Invalid, op.Line, field+".collection", "no collection %q in this workload%s", op.Collection, DidYouMean(op.Collection, names))
	}
}

// FindCollection finds a collection by "name" or "database.name".
func (c *Config) FindCollection(ref string) *Collection {
	for i := range c.Collections {
		col := &c.Collections[i]
		if ref == col.Name || ref == col.Namespace() {
			return col
		}
	}
	return nil
}

func validateTemplates(add adder, field string, op *Operation, rule templateRule) {
	present := map[string]bool{
		"filter": !op.Filter.IsZero(), "update": !op.Update.IsZero(), "document": !op.Document.IsZero(),
		"pipeline": !op.Pipeline.IsZero(), "projection": !op.Projection.IsZero(), "sort": !op.Sort.IsZero(),
		"limit": !op.Limit.IsZero(), "batchSize": op.BatchSize != 0, "upsert": op.Upsert,
		"steps": len(op.Steps) > 0, "let": !op.Let.IsZero(), "styles": len(op.Styles) > 0,
		"readConcern": op.ReadConcern != "", "maxCommitTime": op.MaxCommitTime > 0,
	}
	for _, r := range rule.required {
		if !present[r] {
			add(Invalid, op.Line, field+"."+r, "%s needs %s", op.Type, r)
		}
	}
	allowed := append(append([]string{}, rule.required...), rule.allowed...)
	for name, ok := range present {
		if ok && !contains(allowed, name) {
			add(Invalid, op.Line, field+"."+name, "%s has no meaning for %s (it takes %s)", name, op.Type, strings.Join(allowed, ", "))
		}
	}
	if op.Type == "insertMany" && op.BatchSize == 0 {
		op.BatchSize = 10
	}
	if op.BatchSize < 0 || op.Limit.N < 0 {
		add(Invalid, op.Line, field, "batchSize and limit cannot be negative")
	}
	if op.Limit.Generated() && op.Type != "find" {
		add(Invalid, op.Limit.Gen.Line, field+".limit", "only find draws its limit per call: give %s a whole number", op.Type)
	}
	if op.Type == "deleteMany" && emptyFilter(op.Filter) {
		add(Invalid, op.Filter.Line, field+".filter", "deleteMany with an empty filter would delete the whole collection")
	}
	if !op.Pipeline.IsZero() && op.Pipeline.Kind != KindArray {
		add(Invalid, op.Pipeline.Line, field+".pipeline", "a pipeline is a list of stages")
	}
	checkOneOf(add, field+".readPreference", op.ReadPreference, readPreferences)
	checkWriteConcern(add, field+".writeConcern", op.WriteConcern)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *Config) validateTransaction(add adder, field string, op *Operation) {
	if len(op.Steps) == 0 {
		add(Invalid, op.Line, field+".steps", "a transaction needs steps: a list of operations run in order")
	}
	if !op.Let.IsZero() && op.Let.Kind != KindDoc {
		add(Invalid, op.Let.Line, field+".let", "let is a mapping of names to values, for example let: {card: {$gen: key, collection: cards}}")
	}
	checkOneOf(add, field+".readConcern", op.ReadConcern, readConcerns)
	checkWriteConcern(add, field+".writeConcern", op.WriteConcern)
	checkOneOf(add, field+".readPreference", op.ReadPreference, readPreferences)
	for _, st := range op.Styles {
		checkOneOf(add, field+".styles", st, TransactionStyles)
	}
	names := map[string]bool{}
	for j := range op.Steps {
		st := &op.Steps[j]
		sf := fmt.Sprintf("%s.steps[%d]", field, j)
		if st.Name == "" {
			st.Name = fmt.Sprintf("%s_%d", st.Type, j+1)
		}
		if names[st.Name] {
			add(Invalid, st.Line, sf+".name", "step name %q is used twice", st.Name)
		}
		names[st.Name] = true
		if st.Type == "transaction" || st.Type == "readModifyWrite" || len(st.Steps) > 0 {
			add(Invalid, st.Line, sf+".type", "a step is one CRUD operation, not %s", st.Type)
			continue
		}
		if st.WriteConcern != nil || st.ReadPreference != "" {
			add(Invalid, st.Line, sf, "a step runs with its transaction's write concern and read preference: set them on the transaction")
		}
		if st.Weight != 0 {
			add(Invalid, st.Line, sf+".weight", "steps have no weight: each runs once per transaction")
		}
		switch st.AbortIf {
		case "":
		case "noMatch":
			if !strings.HasPrefix(st.Type, "update") && !strings.HasPrefix(st.Type, "delete") && st.Type != "replaceOne" && st.Type != "findOneAndUpdate" && st.Type != "findOne" && st.Type != "upsert" {
				add(Invalid, st.Line, sf+".abortIf", "abortIf: noMatch needs a step that matches documents (update, delete, replace, findOne)")
			}
		default:
			add(Invalid, st.Line, sf+".abortIf", "abortIf takes noMatch, not %q", st.AbortIf)
		}
		c.validateOpCollection(add, sf, st)
		rule, ok := opRules[st.Type]
		if !ok {
			add(UnknownOperation, st.Line, sf+".type", "unknown operation type %q%s", st.Type, DidYouMean(st.Type, OperationTypes))
			continue
		}
		validateTemplates(add, sf, st, rule)
	}
}

// emptyFilter: a filter that is, or may draw (an enum of filters), the
// empty document.
func emptyFilter(f Value) bool {
	if f.Kind == KindDoc {
		return len(f.Fields) == 0
	}
	vals, ok := f.Param("values")
	return f.Kind == KindGen && ok && slices.ContainsFunc(vals.Items, func(v Value) bool { return v.Kind == KindDoc && len(v.Fields) == 0 })
}
