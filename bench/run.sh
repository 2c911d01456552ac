#!/usr/bin/env bash
# bench/run.sh (make bench): is mongoload ever the bottleneck?
#
# Against a local test server of its own, for each workload family it runs
# the floor (bench/floor/ycsb, bench/floor/airline: the same operations as
# raw-BSON driver loops, nothing else), mongoload and the wire floor (the
# same floor programs with -client wire: the same operations as one OP_MSG
# written and one read each, no driver) in turn, PAIRS times
# (default 3), each for DURATION seconds (default 15) with CONCURRENCY
# (default 8) goroutines / workers and the driver's default pool, and prints
# per workload: client CPU per operation (user+sys from GNU time over the
# whole process, divided by the operations it completed) min/median/max,
# ops/s, the ratios mongoload/floor and mongoload/wire of each round (median
# and spread), and the
# peak RSS of the measured phase (sampled from /proc/PID/status once the run
# has started measuring; the results file's client.measuredPeakRSSBytes
# when it has one). Then mongoload's peak RSS with 1,000 workers, the peak
# RSS of seeding, and the no-op ceiling: operations per second one core of
# mongoload generates, builds, records and reports with no server at all.
#
# The machine is shared: only ratios of alternating pairs mean anything, and
# the load average is printed beside them. The README's table is written
# from this output by bench/readme.sh, never by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-15}
CONCURRENCY=${CONCURRENCY:-8}
PAIRS=${PAIRS:-3}
RECORDS=${RECORDS:-10000}
DOCS=${DOCS:-10000}
WORKLOADS=${WORKLOADS:-"ycsb-a default"}
command -v /usr/bin/time >/dev/null || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench: needs python3" >&2; exit 1; }
out=bench/results; mkdir -p "$out"; rm -f "$out"/*.pair "$out"/*.time
go build -o bin/mongoload ./cmd/mongoload
go build -o bin/floor-ycsb ./bench/floor/ycsb
go build -o bin/floor-airline ./bench/floor/airline
go build -o bin/ceiling ./bench/ceiling
uri=$(scripts/testserver start bench | tail -n 1)
trap 'scripts/testserver stop bench >/dev/null 2>&1 || true' EXIT

# rss_watch PID FILE: the highest VmRSS (kB) of PID, sampled every 100 ms
# from its second second on (after connecting and setting up, before the
# first interval ends), written to FILE when PID exits.
rss_watch() {
  local pid=$1 file=$2 peak=0 t=0 v
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$t" -ge 10 ]; then
      v=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
      [ -n "$v" ] && [ "$v" -gt "$peak" ] && peak=$v
    fi
    t=$((t + 1)); sleep 0.1
  done
  echo "$peak" >"$file"
}

# timed NAME CMD...: runs CMD under GNU time ("user sys maxrss_kb" to
# NAME.time) and samples the RSS of the measured process (NAME.rss).
timed() {
  local name=$1; shift
  /usr/bin/time -f "%U %S %M" -o "$out/$name.time" "$@" >"$out/$name.out" 2>"$out/$name.err" &
  local tpid=$! pid=""
  for _ in $(seq 50); do pid=$(pgrep -P "$tpid" | head -n1 || true); [ -n "$pid" ] && break; sleep 0.02; done
  [ -n "$pid" ] && rss_watch "$pid" "$out/$name.rss" &
  local wpid=$!
  wait "$tpid" || { echo "bench: $name failed:"; tail -5 "$out/$name.err"; return 1; }
  wait "$wpid" 2>/dev/null || true
}

ops_floor() { sed -n 's/.*ops=\([0-9]*\).*/\1/p' "$out/$1.out"; }
# A floor's errors (a record not found: keys that are not the loaded ones) void the bench.
floor_ok() { grep -q ' errors=0$' "$out/$1.out" || { echo "bench: $1 had failed operations: $(cat "$out/$1.out")" >&2; exit 1; }; }
ops_json() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["totals"]["operations"])' "$1"; }
rss_json() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("client",{}).get("measuredPeakRSSBytes",0))' "$1"; }

# pair_line NAME OPS: "ops cpu_seconds measured_rss_kb load1" for one run.
pair_line() {
  local name=$1 ops=$2 user sys rss sampled
  read -r user sys rss <"$out/$name.time"
  sampled=$(cat "$out/$name.rss" 2>/dev/null || echo 0)
  echo "$ops $(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}') $sampled $(cut -d' ' -f1 /proc/loadavg)"
}

for w in $WORKLOADS; do
  case $w in
    ycsb-a)
      bin/mongoload load ycsb-a --uri "$uri" --documents "$RECORDS" --drop >/dev/null 2>&1
      floor=(bin/floor-ycsb -uri "$uri" -concurrency "$CONCURRENCY" -duration "${DURATION}s")
      ;;
    default)
      bin/mongoload load default --uri "$uri" --documents "$DOCS" --drop >/dev/null 2>&1
      floor=(bin/floor-airline -uri "$uri" -concurrency "$CONCURRENCY" -duration "${DURATION}s" -keys "$DOCS")
      ;;
    *) echo "bench: unknown workload $w" >&2; exit 1 ;;
  esac
  ml=(bin/mongoload run "$w" --uri "$uri" --concurrency "$CONCURRENCY" --duration "${DURATION}s" --warmup 0s
      --seed 0 --setup=false --quiet)
  for i in $(seq "$PAIRS"); do
    # The default mix inserts about one document per operation and deletes
    # some: every run starts from the same freshly loaded collection, or
    # each run would find a bigger collection than the one before it.
    [ "$w" = default ] && bin/mongoload load default --uri "$uri" --documents "$DOCS" --drop >/dev/null 2>&1
    timed "$w-floor-$i" "${floor[@]}"
    floor_ok "$w-floor-$i"
    echo "floor $(pair_line "$w-floor-$i" "$(ops_floor "$w-floor-$i")")" >>"$out/$w.pair"
    [ "$w" = default ] && bin/mongoload load default --uri "$uri" --documents "$DOCS" --drop >/dev/null 2>&1
    timed "$w-mongoload-$i" "${ml[@]}" --out "$out/$w-mongoload-$i.json"
    line=$(pair_line "$w-mongoload-$i" "$(ops_json "$out/$w-mongoload-$i.json")")
    reported=$(rss_json "$out/$w-mongoload-$i.json")
    if [ "$reported" != 0 ]; then line=$(echo "$line" | awk -v r="$reported" '{$3=int(r/1024); print}'); fi
    echo "mongoload $line" >>"$out/$w.pair"
    # The wire floor: the same floor's operations with no driver.
    [ "$w" = default ] && bin/mongoload load default --uri "$uri" --documents "$DOCS" --drop >/dev/null 2>&1
    timed "$w-wire-$i" "${floor[@]}" -client wire
    floor_ok "$w-wire-$i"
    echo "wire $(pair_line "$w-wire-$i" "$(ops_floor "$w-wire-$i")")" >>"$out/$w.pair"
    # YCSB A's server work (zipfian keys, 100 fresh bytes per update) is
    # heavier than that of a loop on uniform keys writing a constant value
    # (after a record's first update the server modifies nothing): the
    # same floor doing the lighter work shows how much of a throughput gap
    # to such a loop is the server's.
    if [ "$w" = ycsb-a ]; then
      timed "$w-light-$i" "${floor[@]}" -keys uniform -value constant
      floor_ok "$w-light-$i"
      echo "light $(pair_line "$w-light-$i" "$(ops_floor "$w-light-$i")")" >>"$out/$w.pair"
    fi
  done
done

# Memory: 1,000 workers (measured phase), and seeding's peak.
bin/mongoload load ycsb-a --uri "$uri" --documents "$RECORDS" --drop >/dev/null 2>&1
timed big bin/mongoload run ycsb-a --uri "$uri" --concurrency 1000 --duration "${DURATION}s" --warmup 0s --seed 0 \
  --setup=false --quiet --out "$out/big.json"
big_rss=$(cat "$out/big.rss"); r=$(rss_json "$out/big.json"); [ "$r" != 0 ] && big_rss=$((r / 1024))
timed seed bin/mongoload load default --uri "$uri" --documents 100000 --drop
read -r _ _ seed_rss <"$out/seed.time"

# The ceiling: no server, one core (bench/ceiling: the engine, the
# recorder and the results file with a no-op executor).
GOMAXPROCS=1 bin/ceiling -workload ycsb-a -concurrency "$CONCURRENCY" -duration 5s >"$out/noop.out"
read -r noop_ops nu < <(sed -n 's/ops=\([0-9]*\) cpu_s=\([0-9.]*\).*/\1 \2/p' "$out/noop.out")
ns=0

# Scheduling: the open-loop scheduler and the sessions dispatcher on one
# core at 50,000 operations a second (and the open loop at 1,000/s, where
# lateness is most of a fast server's latency), with a no-op executor:
# lateness is the gap between an operation's due time and its hand-off.
go test -run '^$' -bench 'Scheduling' -cpu 1 -benchtime "${SCHED_RUNS:-3}x" -count 1 ./internal/engine >"$out/scheduling.out"

python3 bench/table.py "$out" "$WORKLOADS" "$DURATION" "$CONCURRENCY" "$big_rss" "$seed_rss" "$noop_ops" "$nu" "$ns" | tee "$out/table.md"
