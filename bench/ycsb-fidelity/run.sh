#!/usr/bin/env bash
# bench/ycsb-fidelity/run.sh (make ycsb-fidelity): mongoload's YCSB mode
# checked against YCSB's own code. A small Java driver (this directory,
# built by Maven; site.ycsb:core is resolved from Maven Central on first use
# and cached in ~/.m2) draws from YCSB's CoreWorkload and generators; the Go
# program compare/ draws the same cases from mongoload's translation of the
# same properties and prints one row per property: YCSB's figure,
# mongoload's, the tolerance and the verdict. It exits 1 when a row fails.
#
#   bench/ycsb-fidelity/run.sh           print the table
#   bench/ycsb-fidelity/run.sh --docs    also write it into docs/ycsb.md
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
for tool in java mvn; do
  if ! command -v "$tool" >/dev/null; then
    echo "ycsb-fidelity: skipped: $tool is not installed (needs Java 11+ and Maven to run YCSB's own generators)"
    exit 0
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "ycsb-fidelity: building the YCSB driver (Maven resolves site.ycsb:core on first use)" >&2
mvn -B -q -f "$here/pom.xml" compile dependency:build-classpath -Dmdep.outputFile="$work/cp.txt" >&2
go build -o "$work/compare" "$root/bench/ycsb-fidelity/compare"
"$work/compare" -spec > "$work/cases.txt"
echo "ycsb-fidelity: drawing from YCSB ($(wc -l < "$work/cases.txt") cases)" >&2
java -cp "$here/target/classes:$(cat "$work/cp.txt")" site.ycsb.workloads.FidelityDriver < "$work/cases.txt" > "$work/ycsb.txt"
echo "ycsb-fidelity: drawing from mongoload and comparing" >&2
args=(-ycsb "$work/ycsb.txt")
[ "${1:-}" = --docs ] && args+=(-docs "$root/docs/ycsb.md")
"$work/compare" "${args[@]}"
