package metrics

// Docs is what the server did with documents: for one operation, the
// counts its reply carried; added up, an operation's whole interval or run.
// Counting it is a few integer additions under the shard lock the latency
// takes anyway: no allocation, no decoding of documents.
type Docs struct {
	Returned int64 `json:"returned,omitempty"` // documents in the reply batches (find, findOne, aggregate, findOneAndUpdate)
	Matched  int64 `json:"matched,omitempty"`  // documents the filter matched (updates, replace, countDocuments)
	Modified int64 `json:"modified,omitempty"` // documents an update changed
	Upserted int64 `json:"upserted,omitempty"` // documents an update inserted
	Deleted  int64 `json:"deleted,omitempty"`  // documents a delete removed
	Inserted int64 `json:"inserted,omitempty"` // documents an insert wrote
	// Empty counts operations that found nothing to act on: a read that
	// returned no document, an update that matched (and upserted) none, a
	// delete that deleted none. Inserts are never empty.
	Empty int64 `json:"empty,omitempty"`
	// Shaped counts the operations whose result can be empty (reads,
	// updates, deletes): the denominator of Empty's share.
	Shaped int64 `json:"shaped,omitempty"`
}

// Add adds o's counts to d.
func (d *Docs) Add(o Docs) {
	d.Returned += o.Returned
	d.Matched += o.Matched
	d.Modified += o.Modified
	d.Upserted += o.Upserted
	d.Deleted += o.Deleted
	d.Inserted += o.Inserted
	d.Empty += o.Empty
	d.Shaped += o.Shaped
}

// IsZero reports whether nothing was counted.
func (d Docs) IsZero() bool { return d == Docs{} }

// EmptyShare is the share of operations that found nothing, 0..1; 0 when
// no operation could be empty.
func (d Docs) EmptyShare() float64 {
	if d.Shaped == 0 {
		return 0
	}
	return float64(d.Empty) / float64(d.Shaped)
}
