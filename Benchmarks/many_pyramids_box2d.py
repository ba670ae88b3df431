#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Box2D v3's many_pyramids benchmark (20 × 20 pyramids of base 10, 22 000 unit boxes on 20 ground segments,
sleeping off) on Box2D 3.1 through pyb2d3, for side-by-side timing with
`dynamics bench --scene many_pyramids --steps 200`. Run it with the peers' Python
(`python3 Benchmarks/peers.py --print-python` creates it and prints its path):

  .build/peers-venv/bin/python Benchmarks/many_pyramids_box2d.py --workers 1

The layout follows CreateManyPyramids in Box2D's shared/benchmarks.c; step 1/60 s with 4 substeps, gravity
10 m/s², friction 0.6 and density 1 (Box2D's defaults), as in Benchmarks/peers.py. Timing as in peers.py (one
untimed step, then the median of the timed steps). Prints one JSON line with the fields of `dynamics bench --json`.
"""
import argparse
import json
import statistics
import time

import pyb2d3 as b2


def build(workers, rows=20, columns=20, base=10, extent=0.5):
    pool = b2.ThreadPool(workers) if workers > 1 else None
    world = b2.World(thread_pool=pool, gravity=(0.0, -10.0))
    world.sleeping_enabled = False
    mat = b2.surface_material(friction=0.6, restitution=0.0)
    ground_dy = 2.0 * extent * (base + 1.0)
    ground_width = 2.0 * extent * columns * (base + 1.0)
    ground = world.create_static_body(position=(0.0, 0.0))
    for i in range(rows):
        y = i * ground_dy
        ground.create_shape(b2.shape_def(material=mat), b2.segment((-0.5 * ground_width, y), (0.5 * ground_width, y)))
    sdef = b2.shape_def(density=1.0, material=mat)
    geom = b2.box(extent, extent)
    base_width = 2.0 * extent * base
    count = 0
    for i in range(rows):
        base_y = i * ground_dy
        for j in range(columns):
            center_x = -0.5 * ground_width + j * (base_width + 2.0 * extent) + 2.0 * extent
            for r in range(base):
                y = (2.0 * r + 1.0) * extent + base_y
                for c in range(r, base):
                    x = (r + 1.0) * extent + 2.0 * (c - r) * extent + center_x - 0.5
                    world.create_dynamic_body(position=(x, y)).create_shape(sdef, geom)
                    count += 1
    return world, pool, count


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--steps", type=int, default=200)
    a = p.parse_args()
    world, pool, count = build(a.workers)
    dt = 1.0 / 60.0
    world.step(dt, 4)  # one untimed step, as peers.py
    times = []
    c0 = time.process_time()
    for _ in range(a.steps):
        t0 = time.perf_counter()
        world.step(dt, 4)
        times.append(time.perf_counter() - t0)
    cpu = time.process_time() - c0
    print(json.dumps({
        "engine": "box2d", "scene": "many_pyramids", "shape": "box", "items": count,
        "workers": a.workers, "steps": a.steps,
        "ms_per_step_median": round(1000 * statistics.median(times), 4),
        "ms_per_step_mean": round(1000 * sum(times) / len(times), 4),
        "cpu_ms_per_step": round(1000 * cpu / a.steps, 4),
    }))
    del pool


if __name__ == "__main__":
    main()
