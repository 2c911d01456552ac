#!/usr/bin/env bash
# bench/usl.sh: how far the Universal Scalability Law that `sweep
# --concurrency` fits carries on this machine. Each repeat sweeps finds by an
# indexed field over 10,000 documents at the LEVELS sets below, then runs 32
# workers alone, and prints each fit's prediction for 32 beside the
# measurement (measured/predicted: 1.00 is a perfect extrapolation). With
# two or more cores the test server is pinned to CPU 0 and mongoload to
# CPU 1 (taskset), so the server has one core: its throughput stops growing
# at about two workers, a sharp knee the law can bend only through κ.
#
#   REPEATS=2 LEVELS="1,2,4,8 1,2,4,8,16" STEP=4 bench/usl.sh
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS=${REPEATS:-2}
LEVELS=${LEVELS:-"1,2,4,8 1,2,4,8,16"}
STEP=${STEP:-4}
command -v python3 >/dev/null || { echo "bench/usl.sh: needs python3 to read the result files" >&2; exit 2; }
work=$(mktemp -d /tmp/usl-bench.XXXXXX)
export TESTSERVER_STATE=$work/state
trap 'scripts/testserver stop uslbench >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
go build -o "$work/mongoload" ./cmd/mongoload
server=() client=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  server=(taskset -c 0) client=(taskset -c 1)
  echo "test server on CPU 0, mongoload on CPU 1 ($(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg))"
else
  echo "no taskset or one core: server and client share the machine's cores"
fi
uri=$("${server[@]}" scripts/testserver start uslbench | tail -n 1)
ml() { "${client[@]}" "$work/mongoload" "$@"; }
for r in $(seq 1 "$REPEATS"); do
  for levels in $LEVELS; do
    ml sweep bench/finds.yaml --uri "$uri" --concurrency "$levels" --step-duration "${STEP}s" --warmup 1s \
      --quiet --out "$work/sweep.json" >/dev/null 2>"$work/err" || { tail -1 "$work/err" >&2; exit 1; }
    ml run bench/finds.yaml --uri "$uri" --concurrency 32 --duration "${STEP}s" --warmup 1s --setup=false \
      --seed 0 --quiet --out "$work/c32.json" >/dev/null 2>"$work/err" || { tail -1 "$work/err" >&2; exit 1; }
    python3 - "$r" "$levels" "$work/sweep.json" "$work/c32.json" <<'PY'
import json, sys
rep, levels, sweep, run = sys.argv[1:]
s = json.load(open(sweep))
u = s["usl"]
measured = {int(p["concurrency"]): p["measured"] for p in u["predictions"] if "measured" in p}
pred = {int(p["concurrency"]): p for p in u["predictions"]}
m32 = json.load(open(run))["totals"]["throughput"]
p32 = pred[32]["throughput"] if 32 in pred else float("nan")
far = " (flagged: beyond 2.5x the largest level)" if pred.get(32, {}).get("farBeyond") else ""
steps = ", ".join(f"{n}: {x:,.0f}" for n, x in sorted(measured.items()))
print(f"repeat {rep}, levels {levels}: measured {steps} ops/s; σ {u['sigma']:.4f} κ {u['kappa']:.5f} R² {u['r2']:.3f};"
      f" 32 workers predicted {p32:,.0f}{far}, measured {m32:,.0f}: measured/predicted {m32 / p32:.2f}")
PY
  done
done
