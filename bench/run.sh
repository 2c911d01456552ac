#!/usr/bin/env bash
# bench/run.sh: is the load generator ever the bottleneck?
#
# Against a local test server it runs, each for DURATION (default 20s):
#   1. mongoload with the default workload, CONCURRENCY (default 8) workers;
#   2. bench/driverloop: the same operations as a plain Go driver loop (the floor);
#   3. mongoload with 1,000 workers, for its peak RSS.
# and prints client CPU time per operation (user+sys / operations), ops/s and
# peak RSS for each, and the ratio of mongoload's CPU per operation to the floor's.
# Client and server share this machine's cores: compare ratios, not absolutes.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-20}
CONCURRENCY=${CONCURRENCY:-8}
DOCS=${DOCS:-10000}
command -v /usr/bin/time >/dev/null || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }
out=bench/results; mkdir -p "$out"
go build -o bin/mongoload ./cmd/mongoload
go build -o bin/driverloop ./bench/driverloop
uri=$(scripts/testserver start bench | tail -n 1)
trap 'scripts/testserver stop bench' EXIT

bin/mongoload load --uri "$uri" --documents "$DOCS" >/dev/null

# measure NAME CMD...: runs CMD under GNU time; prints "user sys maxrss_kb" to $out/NAME.time
measure() {
  local name=$1; shift
  /usr/bin/time -f "%U %S %M" -o "$out/$name.time" "$@" >"$out/$name.out" 2>"$out/$name.err"
}
report() { # NAME OPS
  local name=$1 ops=$2 user sys rss
  read -r user sys rss <"$out/$name.time"
  awk -v n="$name" -v u="$user" -v s="$sys" -v r="$rss" -v ops="$ops" -v d="$DURATION" 'BEGIN {
    printf "%-22s %10d ops %9.0f ops/s %8.1f us CPU/op %7.1f MB peak RSS\n", n, ops, ops/d, (u+s)*1e6/ops, r/1024 }'
}
ops_of_results() { jq '.totals.operations' "$1"; }

measure mongoload bin/mongoload run --uri "$uri" --concurrency "$CONCURRENCY" --duration "${DURATION}s" --quiet --out "$out/mongoload.json"
measure driverloop bin/driverloop -uri "$uri" -concurrency "$CONCURRENCY" -duration "${DURATION}s" -keys "$DOCS"
measure mongoload-1000 bin/mongoload run --uri "$uri" --concurrency 1000 --duration "${DURATION}s" --quiet --out "$out/mongoload-1000.json"

ml_ops=$(ops_of_results "$out/mongoload.json")
dl_ops=$(awk '{print $2}' "$out/driverloop.out")
big_ops=$(ops_of_results "$out/mongoload-1000.json")
echo "default workload, ${CONCURRENCY} workers, ${DURATION}s, $(nproc) cores shared with the server:"
report mongoload "$ml_ops"
report driverloop "$dl_ops"
report mongoload-1000 "$big_ops"
read -r u1 s1 _ <"$out/mongoload.time"; read -r u2 s2 _ <"$out/driverloop.time"
awk -v u1="$u1" -v s1="$s1" -v u2="$u2" -v s2="$s2" -v x="$ml_ops" -v y="$dl_ops" \
  'BEGIN { printf "CPU per operation, mongoload / plain driver loop: %.2fx (target <= 1.30x)\n", ((u1+s1)/x)/((u2+s2)/y) }'
