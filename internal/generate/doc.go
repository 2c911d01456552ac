// Package generate turns a parsed template (config.Value) into generators
// that append BSON straight into a reused byte buffer, so that producing a
// document costs no maps, no reflection and, once the buffer has grown, no
// allocations (the mgodatagen pattern).
//
// Compile once, at plan time; then every worker calls Append with its own
// State, which carries the worker's seeded random source. Compiled
// generators hold no per-worker state, so one compiled template serves all
// workers; the only shared mutable state is in KeySpace (atomics, plus a
// mutex taken only by inserts that hold their keys) and in the sequential
// and scrambled zipfian distributions (atomics).
//
// Literal subtrees (no generator anywhere below) are encoded once at compile
// time and copied on Append. The generators, their parameters and the rules
// for nullProbability, missingProbability and key modes are listed in
// docs/generators.md.
package generate
