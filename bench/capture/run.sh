#!/usr/bin/env bash
# bench/capture/run.sh [SIZES_MB...]: capture --log's speed and memory
# against log size, beside wc -l on the same file. The logs are the
# slow-query lines of ../shared/realformats/logs (real mongod 5.0-8.0 logs)
# repeated to each size (default 100 and 1000 MB). Prints a markdown
# table (bench/results/capture.md): wall seconds, MB/s, peak RSS (GNU
# time), with and without --trace, and the load average, since this
# project's machine is shared. Then the parser alone against the driver's
# reader and encoding/json (go test -bench ParseLogLine).
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(100 1000)
R=$(cd ../shared/realformats/logs 2>/dev/null && pwd) || { echo "bench/capture: no ../shared/realformats/logs" >&2; exit 1; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
go build -o "$T/mongoload" ./cmd/mongoload
: > "$T/src.log"; for f in "$R"/*.log; do grep '"id":51803' "$f" >> "$T/src.log" || true; done
mkdir -p bench/results; out=bench/results/capture.md
{
echo "| log | lines | wc -l s | capture s | MB/s | peak RSS MB | with --trace: s | MB/s | peak RSS MB | load avg |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for mb in "${sizes[@]}"; do
  big=$T/big.log; : > "$big"
  while [ $(( $(stat -c %s "$big") / 1048576 )) -lt "$mb" ]; do cat "$T/src.log" "$T/src.log" "$T/src.log" "$T/src.log" >> "$big"; done
  sz=$(stat -c %s "$big")
  s=$(date +%s.%N); lines=$(wc -l < "$big"); e=$(date +%s.%N); wc=$(python3 -c "print(f'{$e-$s:.2f}')")
  row="| $((sz/1048576)) MB | $lines | $wc"
  for mode in model trace; do
    extra=(); [ $mode = trace ] && extra=(--trace "$T/t.trace" --keep-values)
    /usr/bin/time -f "%e %M" "$T/mongoload" capture --log "$big" --out "$T/w.yaml" "${extra[@]}" > /dev/null 2> "$T/err"
    read -r secs rss < <(tail -1 "$T/err")
    row="$row | $secs | $(python3 -c "print(round($sz/1048576/max($secs,0.01)))") | $((rss/1024))"
    rm -f "$T/t.trace"
  done
  echo "$row | $(cut -d' ' -f1 /proc/loadavg) |"
  rm -f "$big"
done
} | tee "$out"
go test -run XXX -bench ParseLogLine -benchtime 2s ./internal/capture/source | grep Benchmark | tee -a "$out"
