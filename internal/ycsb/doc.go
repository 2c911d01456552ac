// Package ycsb makes mongoload speak YCSB: it reads YCSB's property files
// (workloads/workloada and the like) and -p overrides, maps CoreWorkload's
// properties onto a mongoload workload (collection, record shape, mix, key
// distribution, run settings) and renders YCSB's six core workloads as the
// built-in workloads ycsb-a to ycsb-f. docs/ycsb.md has the mapping.
package ycsb
