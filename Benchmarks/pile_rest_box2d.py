#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The pile scene with sleeping on, on Box2D 3.1 through pyb2d3: how long the pile takes to fall asleep and what
a step costs once it sleeps, for side-by-side timing with `dynamics bench --scene pile --until-rest S`.

  "$python" Benchmarks/pile_rest_box2d.py --items 10000 --workers 1 [--max-seconds 60] [--steps 120]

The pile as `dynamics scenes` describes it, in metres with y up: N unit boxes in ceil(2·√N) columns at a 1.2 m
pitch (x jitter 0.1·(((i·7919) mod 201) − 100)/100 m), the lowest row 1 m above the floor, in a container of inner
width cols·1.2 + 2 m whose walls reach rows·1.2 + 10 m; step 1/60 s with 4 substeps, gravity 10 m/s², friction
0.6, restitution 0, density 1. Box2D's sleep rule matches Dynamics' rest rule: below 0.05 m/s (5 pt/s) for 0.5 s,
island by island. One untimed step; then steps are timed one by one until every body sleeps (checked after each
step, outside the timing), then --steps more. Prints one JSON line with the fields of
`dynamics bench --until-rest --json`.
"""
import argparse
import json
import math
import statistics
import time

import pyb2d3 as b2

DT = 1.0 / 60.0
SUBSTEPS = 4


def build(n, workers):
    pool = b2.ThreadPool(workers) if workers > 1 else None
    world = b2.World(thread_pool=pool, gravity=(0.0, -10.0))
    world.sleeping_enabled = True
    mat = b2.surface_material(friction=0.6, restitution=0.0)
    cols = int(math.ceil(2.0 * math.sqrt(n)))
    rows = int(math.ceil(n / cols))
    half_w = cols * 1.2 / 2.0 + 1.0
    wall_h = rows * 1.2 + 10.0
    for cx, cy, hw, hh in [(0.0, -0.5, half_w + 1.0, 0.5), (-(half_w + 0.5), wall_h / 2.0, 0.5, wall_h / 2.0),
                           (half_w + 0.5, wall_h / 2.0, 0.5, wall_h / 2.0)]:
        world.create_static_body(position=(cx, cy)).create_shape(b2.shape_def(material=mat), b2.box(hw, hh))
    sdef = b2.shape_def(density=1.0, material=mat)
    x0 = -(cols - 1) * 1.2 / 2.0
    bodies = []
    for i in range(n):
        jitter = 0.1 * (((i * 7919) % 201) - 100) / 100.0
        body = world.create_dynamic_body(position=(x0 + (i % cols) * 1.2 + jitter, 1.0 + (i // cols) * 1.2))
        body.create_shape(sdef, b2.box(0.5, 0.5))
        bodies.append(body)
    return world, bodies, pool


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--items", type=int, default=10000)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--max-seconds", type=float, default=60.0)
    p.add_argument("--steps", type=int, default=120)
    a = p.parse_args()
    world, bodies, pool = build(a.items, a.workers)
    world.step(DT, SUBSTEPS)  # untimed
    steps = 1
    awake_times = []
    while any(b.awake for b in bodies) and steps * DT < a.max_seconds:
        t0 = time.perf_counter()
        world.step(DT, SUBSTEPS)
        awake_times.append(time.perf_counter() - t0)
        steps += 1
    rest_seconds = steps * DT if not any(b.awake for b in bodies) else None
    times = []
    c0 = time.process_time()
    for _ in range(a.steps):
        t0 = time.perf_counter()
        world.step(DT, SUBSTEPS)
        times.append(time.perf_counter() - t0)
    cpu = time.process_time() - c0
    print(json.dumps({
        "engine": "box2d", "scene": "pile", "shape": "box", "items": a.items, "workers": a.workers,
        "steps": a.steps, "rest_seconds": rest_seconds,
        "ms_per_step_awake_median": round(1000 * statistics.median(awake_times), 4) if awake_times else None,
        "ms_per_step_median": round(1000 * statistics.median(times), 4),
        "ms_per_step_mean": round(1000 * sum(times) / len(times), 4),
        "cpu_ms_per_step": round(1000 * cpu / a.steps, 4),
    }))
    del world, pool


if __name__ == "__main__":
    main()
