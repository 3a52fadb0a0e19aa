#!/usr/bin/env python3
"""Share of wall time spent inside the SMT solver, over the files a bench run answered correctly.

Usage: scripts/solver-share.py RESULTS.json BENCH_DIR [VERIFY]
Re-runs `verify --stats --format json --timeout 10` on each correctly answered file (one at a time) and
sums the engine's `solver_time` and `total_time`.
"""
import json, subprocess, sys

results, bench = sys.argv[1], sys.argv[2]
verify = sys.argv[3] if len(sys.argv) > 3 else "target/release/verify"
data = json.load(open(results))
rows = data["results"] if isinstance(data, dict) else data
solver = total = 0.0
n = 0
for r in rows:
    if r["outcome"] != "correct" or not r["path"].endswith(".bpl"):
        continue
    out = subprocess.run([verify, "--stats", "--format", "json", "--timeout", "10", r["path"]],
                         cwd=bench, capture_output=True, text=True)
    for line in out.stdout.splitlines():
        o = json.loads(line)
        s = o.get("stats")
        if s:
            solver += s["solver_time"]
            total += s["total_time"]
            n += 1
print(f"files={n} engine_time_s={total:.2f} solver_time_s={solver:.2f} solver_share={100*solver/max(total,1e-9):.1f}%")
