#!/usr/bin/env bash
# bench/cores.sh (part of make bench): each client's cost per operation
# against bench/stub, a server that answers at once from canned replies, so
# that the client is the bottleneck: CPU per operation (user+sys from GNU
# time over the whole process, divided by the operations it completed) and
# operations per CPU second, with the client pinned (taskset) to 1, 2 and 4
# cores and the stub to the cores after them. Clients: the wire floor
# (bench/floor/ycsb -client wire: one OP_MSG written and read per operation,
# no driver), the bare driver loop (bench/floor/ycsb), and mongoload's YCSB
# A through the public API (--driver-path api) and the driver's lower layer
# (--driver-path fast). ROUNDS alternating rounds of DURATION seconds each;
# the medians are printed, with each client's ratio to the wire floor at
# the same cores (bench/cores.py). Where the machine has too few cores for
# the stub to have its own, the table says so: its figures then include
# the stub's share of the cores.
#
#   BIN=bin CORES="1 2 4" ROUNDS=3 DURATION=6 bench/cores.sh
#   EXTRA='name|command;...' adds clients (run under the same taskset; @URI@
#   is the stub's URI, @JSON@ a results file to count operations from)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
CORES=${CORES:-"1 2 4"}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-6}
CONCURRENCY=${CONCURRENCY:-8}
out=${RESULTS:-bench/results}; mkdir -p "$out"
raw="$out/cores.raw"; : >"$raw"
# pin CPUS CMD...: CMD on those cores (taskset, else Python's sched_setaffinity).
pin() {
  local cpus=$1; shift
  if command -v taskset >/dev/null; then taskset -c "$cpus" "$@"; return; fi
  python3 -c 'import os,sys
a,b=(sys.argv[1].split("-")+[sys.argv[1]])[:2]
os.sched_setaffinity(0, range(int(a), int(b)+1)); os.execvp(sys.argv[2], sys.argv[2:])' "$cpus" "$@"
}
if [ -z "${NOBUILD:-}" ]; then
  go build -o "$BIN/mongoload" ./cmd/mongoload
  go build -o "$BIN/floor-ycsb" ./bench/floor/ycsb
  go build -o "$BIN/stub" ./bench/stub
fi
ncpu=$(nproc)
max=0; for n in $CORES; do [ "$n" -gt "$max" ] && max=$n; done
# The stub gets the cores after the clients' when there are any.
if [ "$ncpu" -gt "$max" ]; then stubcpus="$max-$((ncpu - 1))"; shared=0; else stubcpus="0-$((ncpu - 1))"; shared=1; fi
pin "$stubcpus" "$BIN/stub" -addr 127.0.0.1:0 >"$out/stub.out" 2>&1 &
stub=$!
trap 'kill "$stub" 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q listening "$out/stub.out" && break; sleep 0.05; done
hp=$(sed -n 's/^stub listening on //p' "$out/stub.out")
[ -n "$hp" ] || { echo "bench: the stub did not start: $(cat "$out/stub.out")" >&2; exit 1; }
uri="mongodb://$hp/?directConnection=true"

# measure CORES NAME CMD...: one run pinned to the first CORES cores; appends
# "cores name ops cpu_seconds 0" to the raw file.
measure() {
  local n=$1 name=$2; shift 2
  local f="$out/cores-$name-$n"
  # bash's times: the second line is the finished children's user and sys
  # time (no GNU time needed on a bare machine).
  ( pin "0-$((n - 1))" "$@" >"$f.out" 2>"$f.err" && times >"$f.times" ) ||
    { echo "bench: $name on $n cores failed: $(tail -3 "$f.err")" >&2; exit 1; }
  tail -n 1 "$f.times" >"$f.time"
  local ops
  if [ -s "$f.json" ]; then
    ops=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["totals"]["operations"])' "$f.json")
  else
    grep -q ' errors=0$' "$f.out" || { echo "bench: $name had failed operations: $(cat "$f.out")" >&2; exit 1; }
    ops=$(sed -n 's/.*ops=\([0-9]*\).*/\1/p' "$f.out")
  fi
  # "0m1.234s 0m0.567s" -> seconds
  echo "$n $name $ops $(sed 's/m/ /g; s/s//g' "$f.time" | awk '{print $1*60+$2+$3*60+$4}') 0" >>"$raw"
  rm -f "$f.json"
}

floor=("$BIN/floor-ycsb" -uri "$uri" -concurrency "$CONCURRENCY" -duration "${DURATION}s")
ml() { echo "$BIN/mongoload run ycsb-a --uri $uri --concurrency $CONCURRENCY --duration ${DURATION}s --warmup 0s --seed 0 --setup=false --quiet --driver-path $1"; }
for i in $(seq "$ROUNDS"); do
  for n in $CORES; do
    [ "$n" -le "$ncpu" ] || { echo "bench: $n cores asked, $ncpu here: skipped" >&2; continue; }
    measure "$n" wire "${floor[@]}" -client wire
    measure "$n" driver "${floor[@]}"
    # shellcheck disable=SC2046
    measure "$n" mongoload-api $(ml api) --out "$out/cores-mongoload-api-$n.json"
    # shellcheck disable=SC2046
    measure "$n" mongoload-fast $(ml fast) --out "$out/cores-mongoload-fast-$n.json"
    while read -r name cmd; do
      [ -n "$name" ] || continue
      # shellcheck disable=SC2086
      cmd=${cmd//@URI@/$uri}
      measure "$n" "$name" ${cmd//@JSON@/$out/cores-$name-$n.json}
    done < <(printf '%s\n' "${EXTRA:-}" | tr ';' '\n' | sed 's/|/ /')
  done
done
python3 bench/cores.py "$raw" "$shared" "$ncpu" "$DURATION" | tee "$out/cores.md"
