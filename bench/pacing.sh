#!/usr/bin/env bash
# bench/pacing.sh: does the open loop keep its target rate?
#
# Against a local test server, runs a cheap workload (findOne by key) in open
# loop at several target rates (RATES, default "250 500 1000 2000 4000") for
# DURATION seconds each (default 20), with fixed and with Poisson arrivals,
# and prints target, achieved rate, deviation, dropped and late operations.
# The target is met when the deviation is within 1% and nothing is dropped;
# a rate the server cannot sustain shows as drops, never as a silent shortfall.
set -euo pipefail
cd "$(dirname "$0")/.."
RATES=${RATES:-"250 500 1000 2000 4000"}
DURATION=${DURATION:-20}
out=bench/results; mkdir -p "$out"
go build -o bin/mongoload ./cmd/mongoload
uri=$(scripts/testserver start pacing | tail -n 1)
trap 'scripts/testserver stop pacing' EXIT
cat >"$out/pacing.yaml" <<'YAML'
name: pacing
collections:
  - database: bench
    name: pacing
    template: {k: {$gen: key}, v: {$gen: string, length: 100}}
    indexes: [{keys: {k: 1}}]
operations:
  - {name: get, type: findOne, weight: 1, filter: {k: {$gen: key}}}
YAML
bin/mongoload load "$out/pacing.yaml" --uri "$uri" --documents 10000 >/dev/null
printf "%-8s %-8s %10s %10s %9s %8s %8s %12s\n" arrival target achieved deviation dropped late p99ms "CPU us/op"
for arrival in fixed poisson; do
  for rate in $RATES; do
    bin/mongoload run "$out/pacing.yaml" --uri "$uri" --rate "$rate" --arrival "$arrival" \
      --duration "${DURATION}s" --warmup 2s --quiet --out "$out/pacing-$arrival-$rate.json" >/dev/null 2>&1
    jq -r --arg a "$arrival" --arg r "$rate" '
      .schedule as $s |
      [$a, $r, ($s.achievedRate|tostring), ((($s.achievedRate - ($r|tonumber)) / ($r|tonumber) * 100 * 100 | round) / 100 | tostring) + "%",
       ($s.dropped|tostring), ($s.late|tostring), (.totals.latency.p99|tostring), (.client.cpuPerOpMicros|tostring)] | @tsv' \
      "$out/pacing-$arrival-$rate.json" | awk -F'\t' '{printf "%-8s %-8s %10s %10s %9s %8s %8s %12s\n", $1, $2, $3, $4, $5, $6, $7, $8}'
  done
done
