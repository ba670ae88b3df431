#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns the JMH export of the Fields benchmark target into the committed markdown table.

    cd Benchmarks && swift package --allow-writing-to-package-directory benchmark --target Fields \\
        --format jmh --path /tmp/fields
    python3 Benchmarks/fields-table.py /tmp/fields/Current_run.jmh.json

Throughput is the harness's median (p50) steps per second. One step = 4 substeps, and every item is a
member of every field, so item-field evaluations per step = items × fields × 4. The triad row gives the
time of a STREAM triad over the bytes the field passes of one step move at least (40 B per item per
substep), measured in the same run.
"""
import json
import re
import sys

SUBSTEPS = 4
runs = json.load(open(sys.argv[1]))
steps = {}
triad = {}
for run in runs:
    name = run["benchmark"].rsplit(".", 1)[-1]
    p50 = run["primaryMetric"]["scorePercentiles"]["50.0"]
    m = re.fullmatch(r"fields_(\w+?)_(\d+)_items_(\d+)_fields_(\d)w", name)
    if m:
        steps[(m[1], int(m[2]), int(m[3]), int(m[4]))] = p50
        continue
    m = re.fullmatch(r"triad_(\d+)_items", name)
    if m:
        triad[int(m[1])] = p50


def row(kind, items, fields):
    cells = []
    for workers in (1, 2):
        rate = steps.get((kind, items, fields, workers))
        if rate is None:
            cells += ["—", "—"]
            continue
        evals = rate * items * fields * SUBSTEPS
        cells += [f"{1000 / rate:.2f}", f"{evals / 1e6:,.0f}"]
    one = steps.get((kind, items, fields, 1))
    floor = f"{1000 / triad[items]:.2f}" if items in triad else "—"
    ratio = f"{triad[items] / one:.1f}" if one and items in triad else "—"
    return f"| {kind} | {items:,} | {fields} | " + " | ".join(cells) + f" | {floor} | {ratio} |"


print("| kind | items | fields | ms/step 1w | M evals/s 1w | ms/step 2w | M evals/s 2w | triad ms | step/triad 1w |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
kinds = sorted({k for k, *_ in steps if not k.startswith("mixed")})
for kind in kinds:
    print(row(kind, 100_000, 8))
for items in (10_000, 100_000, 1_000_000):
    for fields in (1, 8, 32):
        print(row("mixed", items, fields))
for fields in (1, 8, 32):
    print(row("mixedblas", 100_000, fields))
