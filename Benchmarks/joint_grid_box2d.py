#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Box2D v3's joint_grid benchmark (one of the benchmark scenes described in
Sources/DynamicsScenes/DynamicsScenes.docc/BenchmarkScenes.md) on Box2D 3.1 through pyb2d3, for side-by-side
timing with `dynamics bench --scene joint_grid`. Run it with the peers' Python
(`python3 Benchmarks/peers.py --print-python` creates it and prints its path):

  .build/peers-venv/bin/python Benchmarks/joint_grid_box2d.py [--workers 1] [--steps 500]

The scene: 100 × 100 circles of radius 0.4 m at 1 m pitch, each joined by a revolute joint to its
neighbour above and to its left halfway between them, the 7 middle bodies of the top row static,
gravity 10 m/s² down, shapes that collide with nothing. Prints one JSON line with the fields of
`dynamics bench --json`.
"""
import argparse
import json
import statistics
import time

import pyb2d3 as b2


def build(side, workers):
    pool = b2.ThreadPool(workers) if workers > 1 else None
    world = b2.World(thread_pool=pool, gravity=(0.0, -10.0))
    world.sleeping_enabled = False
    sdef = b2.shape_def(density=1.0)
    sdef.filter = b2.make_filter(category_bits=2, mask_bits=~2 & 0xFFFFFFFFFFFFFFFF)
    bodies = []
    for k in range(side):
        for i in range(side):
            fixed = i == 0 and side // 2 - 3 <= k <= side // 2 + 3
            position = (float(k), -float(i))
            body = world.create_static_body(position=position) if fixed else world.create_dynamic_body(position=position)
            body.create_shape(sdef, b2.circle(radius=0.4))
            if i > 0:
                world.create_revolute_joint(b2.revolute_joint_def(body_a=bodies[-1], body_b=body,
                                                                  local_anchor_a=(0.0, -0.5), local_anchor_b=(0.0, 0.5)))
            if k > 0:
                world.create_revolute_joint(b2.revolute_joint_def(body_a=bodies[-side], body_b=body,
                                                                  local_anchor_a=(0.5, 0.0), local_anchor_b=(-0.5, 0.0)))
            bodies.append(body)
    return world


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--side", type=int, default=100)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--steps", type=int, default=500)
    a = p.parse_args()
    world = build(a.side, a.workers)
    world.step(1.0 / 60.0, 4)  # one untimed step
    times = []
    c0 = time.process_time()
    for _ in range(a.steps):
        t0 = time.perf_counter()
        world.step(1.0 / 60.0, 4)
        times.append(time.perf_counter() - t0)
    cpu = time.process_time() - c0
    print(json.dumps({
        "engine": "box2d", "scene": "joint_grid", "shape": "circle", "items": a.side * a.side,
        "workers": a.workers, "steps": a.steps,
        "ms_per_step_median": round(1000 * statistics.median(times), 4),
        "ms_per_step_mean": round(1000 * sum(times) / len(times), 4),
        "cpu_ms_per_step": round(1000 * cpu / a.steps, 4),
    }))


if __name__ == "__main__":
    main()
