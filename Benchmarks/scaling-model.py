#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The step time at more workers than this machine has, from the serial parts `dynamics bench --json` measures.

Usage: Benchmarks/scaling-model.py RESULTS.jsonl [WORKERS ...]   (default workers: 4 16 64)

RESULTS.jsonl holds `dynamics bench --json` lines for each scene at 1 and 2 workers. For each stage s of the
step (broadphase, narrowphase, contact solver, and the rest of the step), the 1-worker run gives its time T1
and its serial part S (time outside parallel jobs: nothing more workers can shorten), so its parallel work is
P = T1 - S. The 2-worker run gives the time its jobs took, J2 = T2 - S2; what J2 has beyond P / 2 is the
jobs' overhead at 2 workers, O2 = max(J2 - P / 2, 0) (imbalance, synchronisation, memory traffic; below 0
when two workers' caches hold what one worker's could not). The model:

    T_s(W) = S + P / W + O2 * log2(W)

Amdahl's law with an overhead that grows with the depth of a barrier tree; it reproduces the 2-worker run
by construction, and gives the bound S + P / W (no overhead) beside it. Memory bandwidth is in O2 only as
far as two workers feel it. It prints a Markdown table per scene and the terms that dominate at the largest
worker count.
"""
import json
import math
import sys

STAGES = [("broadphase", "broadphase"), ("narrowphase", "narrowphase"), ("contact solver", "contact_solve")]


def stages(run):
    """(name, time, serial part) of each stage of a run, ms, the rest of the step last."""
    out, covered, covered_serial = [], 0.0, 0.0
    for name, key in STAGES:
        t, s = run[f"{key}_ms_median"], run[f"{key}_serial_ms_median"]
        out.append((name, t, s))
        covered += t
        covered_serial += s
    rest = max(run["ms_per_step_median"] - covered, 0.0)
    out.append(("rest of the step", rest, max(run["serial_ms_median"] - covered_serial, 0.0)))
    return out


def model(one, two, workers):
    rows = []
    for (name, t1, s1), (_, t2, s2) in zip(stages(one), stages(two)):
        p = max(t1 - s1, 0.0)
        overhead = max((t2 - s2) - p / 2, 0.0)  # below 0: two caches beat one, which does not go on
        rows.append((name, t1, s1, p, t2, overhead, [s1 + p / w + overhead * math.log2(w) for w in workers],
                     [s1 + p / w for w in workers]))
    return rows


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    workers = [int(w) for w in sys.argv[2:]] or [4, 16, 64]
    runs = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    by = {(r["scene"], r["items"], r["workers"]): r for r in runs}
    for (scene, items, w), one in sorted(by.items(), key=lambda kv: runs.index(kv[1])):
        if w != 1 or (scene, items, 2) not in by:
            continue
        two = by[(scene, items, 2)]
        rows = model(one, two, workers)
        print(f"### {scene}, {items} items\n")
        print(f"Measured: {one['ms_per_step_median']:.3f} ms at 1 worker, {two['ms_per_step_median']:.3f} ms at 2 "
              f"({one['ms_per_step_median'] / two['ms_per_step_median']:.2f}x).\n")
        head = " | ".join(f"{w} workers" for w in workers)
        print(f"| stage | 1 worker | serial S | parallel P | 2 workers | overhead O2 | {head} |")
        print("|---|---:|---:|---:|---:|---:|" + "---:|" * len(workers))
        total, bound = [0.0] * len(workers), [0.0] * len(workers)
        for name, t1, s1, p, t2, overhead, at, amdahl in rows:
            cells = " | ".join(f"{x:.3f}" for x in at)
            print(f"| {name} | {t1:.3f} | {s1:.3f} | {p:.3f} | {t2:.3f} | {overhead:.3f} | {cells} |")
            total = [a + b for a, b in zip(total, at)]
            bound = [a + b for a, b in zip(bound, amdahl)]
        t1 = one["ms_per_step_median"]
        print("| **step (model)** | | | | | | " + " | ".join(f"**{x:.3f}**" for x in total) + " |")
        print("| speed-up (model) | | | | | | " + " | ".join(f"{t1 / x:.1f}x" for x in total) + " |")
        print("| speed-up (Amdahl, no overhead) | | | | | | " + " | ".join(f"{t1 / x:.1f}x" for x in bound) + " |")
        w = workers[-1]
        terms = []
        for name, _, s1, p, _, overhead, _, _ in rows:
            terms += [(s1, f"{name} serial part"), (overhead * math.log2(w), f"{name} overhead"),
                      (p / w, f"{name} parallel work")]
        terms.sort(reverse=True)
        top = ", ".join(f"{label} {value:.3f} ms" for value, label in terms[:3])
        print(f"\nAt {w} workers the largest terms: {top} (of {total[-1]:.3f} ms).\n")


if __name__ == "__main__":
    main()
