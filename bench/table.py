#!/usr/bin/env python3
"""Prints bench/run.sh's table from the files it wrote (bench/results).

Each workload's .pair file holds, in run order, one line per run:
  floor|mongoload|wire|light OPS CPU_SECONDS MEASURED_RSS_KB LOAD1
and the runs of one round (floor, mongoload, wire, light) are compared
with each other: floor/mongoload and mongoload/wire are pairs. Ratios are taken within
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


print(f"{conc} workers, {duration:.0f} s per run, the floor, mongoload and the wire floor in turn; "
      f"median (min..max) over the pairs\n")
print("| workload | client | CPU/op µs | ops/s | measured-phase RSS MB | load avg |")
print("|---|---|---|---|---|---|")
ratios, light, wire, peak = {}, {}, {}, {}
LIGHT = "floor, light work (uniform keys, constant value)"
WIRE = "wire floor (one OP_MSG per operation, no driver)"
for w in workloads:
    runs = [l.split() for l in open(f"{out}/{w}.pair")]
    by = {"floor": [], "mongoload": [], "wire": [], "light": []}
    for r in runs:
        by[r[0]].append(tuple(float(x) for x in r[1:]))
    for who, xs in by.items():
        if not xs:
            continue
        who = {"light": LIGHT, "wire": WIRE}.get(who, who)
        cpu = [c / o * 1e6 for o, c, _, _ in xs]
        ops = [o / duration for o, _, _, _ in xs]
        rss = [m / 1024 for _, _, m, _ in xs]
        load = [l for *_, l in xs]
        print(f"| {w} | {who} | {spread(cpu, '{:.1f}')} | {spread(ops, '{:,.0f}')} | "
              f"{spread(rss, '{:.1f}')} | {spread(load, '{:.1f}')} |")
    peak[w] = max((m for _, _, m, _ in by["mongoload"]), default=0) / 1024
    pairs = list(zip(by["floor"], by["mongoload"]))
    ratios[w] = ([(mc / mo) / (fc / fo) for (fo, fc, _, _), (mo, mc, _, _) in pairs],
                 [mo / fo for (fo, _, _, _), (mo, _, _, _) in pairs])
    if by["wire"]:
        wire[w] = ([(mc / mo) / (wc / wo) for (wo, wc, _, _), (mo, mc, _, _) in zip(by["wire"], by["mongoload"])],
                   [mo / wo for (wo, *_), (mo, *_) in zip(by["wire"], by["mongoload"])],
                   [(fc / fo) / (wc / wo) for (wo, wc, _, _), (fo, fc, _, _) in zip(by["wire"], by["floor"])])
    if by["light"]:
        light[w] = ([fo / lo for (fo, *_), (lo, *_) in zip(by["floor"], by["light"])],
                    [mo / lo for (mo, *_), (lo, *_) in zip(by["mongoload"], by["light"])])
print()
print("| workload | CPU/op mongoload/floor (target <= 1.15) | throughput mongoload/floor (target >= 0.95) |")
print("|---|---|---|")
for w, (c, t) in ratios.items():
    print(f"| {w} | **{spread(c, '{:.2f}x')}** | **{spread(t, '{:.2f}x')}** |")
if wire:
    print()
    print("The physical floor: the same operations as one OP_MSG written and one read each, no driver "
          "(bench/floor/client), in the same rounds\n")
    print("| workload | CPU/op mongoload/wire (target <= 1.7) | throughput mongoload/wire (target >= 0.8) | CPU/op driver floor/wire |")
    print("|---|---|---|---|")
    for w, (c, t, f) in wire.items():
        print(f"| {w} | **{spread(c, '{:.2f}x')}** | **{spread(t, '{:.2f}x')}** | {spread(f, '{:.2f}x')} |")
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
for w, mb in peak.items():
    print(f"| mongoload measured-phase RSS, {conc} workers ({w}), highest of the rounds | {mb:.1f} MB | <= 96 MB |")
print(f"| mongoload measured-phase RSS, 1,000 workers (ycsb-a) | {big_rss / 1024:.1f} MB | <= 128 MB |")
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
