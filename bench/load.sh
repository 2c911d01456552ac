#!/usr/bin/env bash
# bench/load.sh: how fast does mongoload load, and what does it cost the client?
#
# Against a local test server of its own it loads, with the default loader
# settings (or BATCH / WORKERS):
#   1. the built-in default workload (airline.flights, ~2 KB documents), DEFAULT_DOCS (200000);
#   2. YCSB-shaped records (bench/ycsb-records.yaml, ~1.1 KB), YCSB_DOCS (500000);
# and prints documents/s, MB/s and client CPU per document (user+sys of the
# whole process from GNU time, setup included, divided by the documents).
# SWEEP=1 also loads the YCSB records with several batch sizes and worker
# counts, to tune the defaults. Client and server share this machine's cores.
set -euo pipefail
cd "$(dirname "$0")/.."
DEFAULT_DOCS=${DEFAULT_DOCS:-200000}
YCSB_DOCS=${YCSB_DOCS:-500000}
command -v /usr/bin/time >/dev/null || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }
out=bench/results; mkdir -p "$out"
go build -o bin/mongoload ./cmd/mongoload
uri=$(scripts/testserver start benchload | tail -n 1)
trap 'scripts/testserver stop benchload' EXIT

# load NAME DOCS WORKLOAD [flags...]: one fresh load, timed; prints one line.
load() {
  local name=$1 docs=$2 workload=$3; shift 3
  local flags=(--uri "$uri" --documents "$docs" --drop "$@")
  [ -n "${BATCH:-}" ] && flags+=(--batch-size "$BATCH")
  [ -n "${WORKERS:-}" ] && flags+=(--workers "$WORKERS")
  /usr/bin/time -f "%U %S %M" -o "$out/load-$name.time" \
    bin/mongoload load "$workload" "${flags[@]}" >"$out/load-$name.out" 2>"$out/load-$name.err"
  local line user sys rss
  line=$(grep '^loaded ' "$out/load-$name.out")
  read -r user sys rss <"$out/load-$name.time"
  local rate mbs
  rate=$(sed -E 's/.*: ([0-9,]+) docs\/s.*/\1/' <<<"$line" | tr -d ,)
  mbs=$(sed -E 's/.* docs\/s, ([0-9.]+) MB\/s.*/\1/' <<<"$line")
  awk -v n="$name" -v r="$rate" -v m="$mbs" -v u="$user" -v s="$sys" -v d="$docs" -v rss="$rss" 'BEGIN {
    printf "%-28s %9d docs %8d docs/s %7.1f MB/s %6.2f us client CPU/doc %6.1f MB peak RSS\n", n, d, r, m, (u+s)*1e6/d, rss/1024 }'
}

echo "mongoload load, $(nproc) cores shared with the server:"
load default "$DEFAULT_DOCS" default
load ycsb "$YCSB_DOCS" bench/ycsb-records.yaml
if [ -n "${SWEEP:-}" ]; then
  echo "sweep (YCSB records, ${YCSB_DOCS} each):"
  for b in 100 500 1000 2000; do
    for w in 2 4 8 16; do
      BATCH=$b WORKERS=$w load "ycsb-b$b-w$w" "$YCSB_DOCS" bench/ycsb-records.yaml
    done
  done
fi
