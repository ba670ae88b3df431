#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The pyramid benchmark scene (Sources/DynamicsScenes/DynamicsScenes.docc/BenchmarkScenes.md: 5 050 unit
boxes, Box2D's large_pyramid) on Box2D 3.1 through pyb2d3 with a chosen substep count and contact stiffness, for
side-by-side timing with `dynamics bench --scene pyramid --substeps … --contact-frequency … --solver-iterations …`.
Run it with the peers' Python (`python3 Benchmarks/peers.py --print-python` creates it and prints its path):

  .build/peers-venv/bin/python Benchmarks/stiff_pyramid_box2d.py --substeps 16 --hertz 120

Box2D caps the contact stiffness it uses by the substep rate, so 120 Hz takes effect only with enough
substeps. Timing as in Benchmarks/peers.py (one untimed step, then the median of the timed steps). Prints one JSON
line with the fields of `dynamics bench --json` plus `substeps`, `contact_frequency` and `top_sink_pt`: how far the
top box sank from its start by the end of the run, in points (100 pt per metre).
"""
import argparse
import json
import statistics
import time

import pyb2d3 as b2


def build(base, substeps, hertz, workers):
    pool = b2.ThreadPool(workers) if workers > 1 else None
    world = b2.World(thread_pool=pool, gravity=(0.0, -10.0))
    world.sleeping_enabled = False
    world.set_contact_tuning(hertz, 10.0, 3.0)  # Box2D's default damping ratio and push-out speed
    mat = b2.surface_material(friction=0.6, restitution=0.0)
    world.create_static_body(position=(0.0, -1.0)).create_shape(b2.shape_def(material=mat), b2.box(base, 1.0))
    sdef = b2.shape_def(density=1.0, material=mat)
    geom = b2.box(0.5, 0.5)
    top = None
    for i in range(base):
        for j in range(i, base):
            top = world.create_dynamic_body(position=(0.5 * (i + 1) + (j - i) - base / 2.0, i + 0.5))
            top.create_shape(sdef, geom)
    return world, top, pool


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--substeps", type=int, default=4)
    p.add_argument("--hertz", type=float, default=30.0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--steps", type=int, default=500)
    a = p.parse_args()
    base = 100
    world, top, pool = build(base, a.substeps, a.hertz, a.workers)
    start = top.position[1]
    dt = 1.0 / 60.0
    world.step(dt, a.substeps)  # one untimed step, as peers.py
    times = []
    c0 = time.process_time()
    for _ in range(a.steps):
        t0 = time.perf_counter()
        world.step(dt, a.substeps)
        times.append(time.perf_counter() - t0)
    cpu = time.process_time() - c0
    print(json.dumps({
        "engine": "box2d", "scene": "pyramid", "shape": "box", "items": base * (base + 1) // 2,
        "workers": a.workers, "steps": a.steps, "substeps": a.substeps, "contact_frequency": a.hertz,
        "ms_per_step_median": round(1000 * statistics.median(times), 4),
        "ms_per_step_mean": round(1000 * sum(times) / len(times), 4),
        "cpu_ms_per_step": round(1000 * cpu / a.steps, 4),
        "top_sink_pt": round(100 * (start - top.position[1]), 2),
    }))
    del pool


if __name__ == "__main__":
    main()
