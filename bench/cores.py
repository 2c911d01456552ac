"""bench/cores.py RAW SHARED NCPU DURATION: the table of bench/cores.sh.

RAW holds one line per run: "cores client ops cpu_seconds elapsed". Per
client and core count: the median CPU per operation (µs) with its range,
operations per CPU second, operations per second (over DURATION), and the
median of each round's ratio to the wire floor's CPU per operation at the
same cores (rounds alternate clients, so a ratio within a round is the
figure that noise on a shared machine disturbs least).
"""
import statistics
import sys
from collections import defaultdict

raw, shared, ncpu, duration = sys.argv[1], sys.argv[2] == "1", int(sys.argv[3]), float(sys.argv[4])
runs = defaultdict(list)  # (cores, client) -> [(ops, cpu)]
order = []
for line in open(raw):
    f = line.split()
    if len(f) < 5:
        continue
    key = (int(f[0]), f[1])
    if f[1] not in order:
        order.append(f[1])
    ops, cpu = int(f[2]), float(f[3])
    if ops <= 0 or cpu <= 0:
        sys.exit(f"bench: {f[1]} on {f[0]} cores: {ops} operations in {cpu} CPU seconds")
    runs[key].append((ops, cpu))

cores = sorted({c for c, _ in runs})
print(f"Client cost against bench/stub ({ncpu} cores here; client pinned to the first N, the stub to the cores after "
      + ("the largest N, or, with none left, to all: where N is all the cores the stub SHARES them and the figures include its share)" if shared else "the largest N)"))
print()
print("| cores | client | CPU/op µs (min..max) | ops per CPU-second | ops/s | CPU/op ÷ wire |")
print("|---|---|---|---|---|---|")
for c in cores:
    wire = runs.get((c, "wire"), [])
    for name in order:
        rs = runs.get((c, name))
        if not rs:
            continue
        us = [cpu / ops * 1e6 for ops, cpu in rs]
        med = statistics.median(us)
        ratio = "-"
        if wire and name != "wire":
            per_round = [(cpu / ops) / (wc / wo) for (ops, cpu), (wo, wc) in zip(rs, wire)]
            ratio = f"{statistics.median(per_round):.2f}x"
        ops_s = statistics.median(ops / duration for ops, _ in rs)
        print(f"| {c} | {name} | {med:.1f} ({min(us):.1f}..{max(us):.1f}) | {1e6 / med:,.0f} | {ops_s:,.0f} | {ratio} |")
