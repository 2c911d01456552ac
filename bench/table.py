#!/usr/bin/env python3
"""Prints bench/run.sh's table from the files it wrote (bench/results).

Each workload's .pair file holds, in run order, one line per run:
  floor|mongoload OPS CPU_SECONDS MEASURED_RSS_KB LOAD1
and consecutive floor/mongoload lines are one pair. Ratios are taken within
a pair (the machine is shared, so only a ratio of neighbouring runs means
anything); the table gives their median and the min..max spread.
"""
import statistics
import sys

out, workloads, duration, conc = sys.argv[1], sys.argv[2].split(), float(sys.argv[3]), sys.argv[4]
big_rss, seed_rss = int(sys.argv[5]), int(sys.argv[6])
noop_ops, noop_cpu = int(sys.argv[7]), float(sys.argv[8]) + float(sys.argv[9])


def spread(xs, fmt):
    xs = sorted(xs)
    return f"{fmt.format(statistics.median(xs))} ({fmt.format(xs[0])}..{fmt.format(xs[-1])})"


print(f"{conc} workers, {duration:.0f} s per run, floor and mongoload alternating; "
      f"median (min..max) over the pairs\n")
print("| workload | client | CPU/op µs | ops/s | measured-phase RSS MB | load avg |")
print("|---|---|---|---|---|---|")
ratios, light = {}, {}
LIGHT = "floor, light work (uniform keys, constant value)"
for w in workloads:
    runs = [l.split() for l in open(f"{out}/{w}.pair")]
    by = {"floor": [], "mongoload": [], "light": []}
    for r in runs:
        by[r[0]].append(tuple(float(x) for x in r[1:]))
    for who, xs in by.items():
        if not xs:
            continue
        who = LIGHT if who == "light" else who
        cpu = [c / o * 1e6 for o, c, _, _ in xs]
        ops = [o / duration for o, _, _, _ in xs]
        rss = [m / 1024 for _, _, m, _ in xs]
        load = [l for *_, l in xs]
        print(f"| {w} | {who} | {spread(cpu, '{:.1f}')} | {spread(ops, '{:,.0f}')} | "
              f"{spread(rss, '{:.1f}')} | {spread(load, '{:.1f}')} |")
    pairs = list(zip(by["floor"], by["mongoload"]))
    ratios[w] = ([(mc / mo) / (fc / fo) for (fo, fc, _, _), (mo, mc, _, _) in pairs],
                 [mo / fo for (fo, _, _, _), (mo, _, _, _) in pairs])
    if by["light"]:
        light[w] = ([fo / lo for (fo, *_), (lo, *_) in zip(by["floor"], by["light"])],
                    [mo / lo for (mo, *_), (lo, *_) in zip(by["mongoload"], by["light"])])
print()
print("| workload | CPU/op mongoload/floor (target <= 1.15) | throughput mongoload/floor (target >= 0.95) |")
print("|---|---|---|")
for w, (c, t) in ratios.items():
    print(f"| {w} | **{spread(c, '{:.2f}x')}** | **{spread(t, '{:.2f}x')}** |")
if light:
    print()
    print("The server's share of a gap: the same floor doing lighter server work than the workload "
          "(uniform keys, an update that writes a constant value, as a plain loop such as the "
          "acceptance check's tools/driverfloor does), throughput in the same run\n")
    print("| workload | floor (the workload's work) / floor (light work) | mongoload / floor (light work) |")
    print("|---|---|---|")
    for w, (f, m) in light.items():
        print(f"| {w} | {spread(f, '{:.2f}x')} | {spread(m, '{:.2f}x')} |")
print()
print("| figure | value | target |")
print("|---|---|---|")
print(f"| mongoload measured-phase RSS, 1,000 workers (ycsb-a) | {big_rss / 1024:.1f} MB | <= 64 MB |")
print(f"| peak RSS seeding 100,000 default documents | {seed_rss / 1024:.1f} MB | <= 64 MB |")
print(f"| no-op executor (bench/ceiling), ycsb-a, GOMAXPROCS=1: operations per CPU second | {noop_ops / noop_cpu:,.0f} | >= 1,000,000 |")

# Scheduling lateness (go test -bench Scheduling -cpu 1 ./internal/engine).
import re
rows = []
for line in open(f"{out}/scheduling.out"):
    if not line.startswith("BenchmarkScheduling"):
        continue
    m = dict((k, float(v)) for v, k in re.findall(r"([0-9.]+) (\S+)", line))
    rows.append((line.split()[0], m))
if rows:
    print("\nScheduling on one core (GOMAXPROCS=1), no-op executor; lateness = hand-off time minus due time\n")
    print("| benchmark | ops/s | dropped | p50 late µs | p99 late µs | max late µs | target |")
    print("|---|---|---|---|---|---|---|")
    for name, m in rows:
        target = "p99 < 1,000 µs at 50,000/s" if m.get("ops/s", 0) > 10000 else ""
        print(f"| {name} | {m.get('ops/s', 0):,.0f} | {m.get('dropped', 0):.0f} | {m.get('p50-late-µs', 0):,.0f} | "
              f"{m.get('p99-late-µs', 0):,.0f} | {m.get('max-late-µs', 0):,.0f} | {target} |")
