#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Ray casts into the 100 000-box pile on Box2D 3.1 through pyb2d3, beside Benchmarks/Benchmarks/Queries (the
same layout and the same rays): the `pile` scene as it is made, in metres with y up (built by
Benchmarks/pile_rest_box2d.py), before any step, and N rays from above the container to below its floor,
ray k from x = −w + ((k·7919) mod 100 003)/100 003 · 2w at 5 m above the walls' tops to x + ((k·104 729) mod 2001 −
1000)/200 m at 5 m below the floor (w: the container's inner half width). Each ray is one call of
`World.cast_ray_closest` (pyb2d3 has no bulk ray cast, so each also pays the interpreter's call). Timed over
all the rays, --repeat times, beside as many calls with rays far from every shape (what a call costs the
interpreter and the binding); prints one JSON line: the median and smallest time for all the rays, the time
per ray, how many rays hit, and the median time of the far rays' calls.

  "$python" Benchmarks/queries_box2d.py [--items 100000] [--rays 100000] [--repeat 5]
"""
import argparse
import json
import math
import statistics
import time

import pyb2d3 as b2

from pile_rest_box2d import build


def container(n):
    """The container's inner half width and its walls' height (m), as pile_rest_box2d.build lays them out."""
    cols = int(math.ceil(2.0 * math.sqrt(n)))
    rows = int(math.ceil(n / cols))
    return cols * 1.2 / 2.0 + 1.0, rows * 1.2 + 10.0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--items", type=int, default=100000)
    p.add_argument("--rays", type=int, default=100000)
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args()
    world, _, _ = build(a.items, 1)  # the pile as pile_rest_box2d.py makes it (its sleeping does not matter here)
    half_w, wall_h = container(a.items)
    rays = []
    for k in range(a.rays):
        x = -half_w + ((k * 7919) % 100003) / 100003.0 * 2.0 * half_w
        slant = (((k * 104729) % 2001) - 1000) / 200.0
        start = (x, wall_h + 5.0)
        rays.append((b2.Vec2(*start), b2.Vec2(slant, -(wall_h + 10.0))))
    # The same number of calls with rays far from every shape: what a call costs the interpreter and the binding
    # (and Box2D a look at its trees' roots), measured in the same run.
    empty = [(b2.Vec2(1.0e5, 1.0e5 + k * 1e-3), b2.Vec2(1.0, 0.0)) for k in range(a.rays)]
    times, empty_times, hits = [], [], 0
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        for origin, translation in empty:
            world.cast_ray_closest(origin, translation)
        empty_times.append(time.perf_counter() - t0)
        hits = 0
        t0 = time.perf_counter()
        for origin, translation in rays:
            if world.cast_ray_closest(origin, translation).hit:
                hits += 1
        times.append(time.perf_counter() - t0)
    print(json.dumps({"engine": "box2d-3.1 (pyb2d3 0.11.1)", "items": a.items, "rays": a.rays, "repeat": a.repeat,
                      "ms_median": statistics.median(times) * 1e3, "ms_min": min(times) * 1e3,
                      "us_per_ray_median": statistics.median(times) * 1e6 / a.rays, "hits": hits,
                      "empty_ms_median": statistics.median(empty_times) * 1e3}))


if __name__ == "__main__":
    main()
