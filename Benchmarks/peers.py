#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The pile and pyramid benchmark scenes on peer engines, for side-by-side timing with `dynamics bench`.

Engines: `box2d` (Box2D 3.1 through the PyPI package pyb2d3) and `pymunk` (Chipmunk2D). The scenes are
those of the benchmark scenes (Sources/DynamicsScenes/DynamicsScenes.docc/BenchmarkScenes.md): the
layouts below are written in Dynamics' points with y down, exactly as Scene+Reference.swift places the
items, and converted to the peers' metres with y up (100 pt per metre). Prints one JSON line with the
field names of `dynamics bench --json`.

    python3 Benchmarks/peers.py --engine box2d --scene pile --items 10000 [--shape box|circle]
        [--workers 1] [--steps 600] [--sleep]
    python3 Benchmarks/peers.py --print-python

Any Python 3 can start it: the script runs itself in the peers' virtual environment, which it creates
on first use in the repository's ignored build folder (.build/peers-venv, or $DYNAMICS_PEERS_VENV) and
fills with the pinned packages from PyPI. `--print-python` only makes sure that environment exists and
prints its interpreter's path (Benchmarks/peer-env.sh runs the other peer scripts with it).
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

# The peers, pinned so that runs on different days time the same code.
PEER_PACKAGES = {"pyb2d3": "0.11.1", "pymunk": "7.3.1"}

STEP = 1.0 / 60.0  # s
SUBSTEPS = 4
FRICTION = 0.6
PT_PER_M = 100.0


# --- The peers' virtual environment -------------------------------------------------------------------

def environment_folder():
    repository = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.environ.get("DYNAMICS_PEERS_VENV") or os.path.join(repository, ".build", "peers-venv")


def has_pinned_peers(python):
    """Whether `python` imports every peer at its pinned version."""
    check = ("import importlib.metadata as m, sys; pins = %r\n"
             "sys.exit(0 if all(m.version(n) == v for n, v in pins.items()) else 1)" % PEER_PACKAGES)
    try:
        return subprocess.run([python, "-c", check], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0
    except OSError:
        return False


def peer_python():
    """The environment's Python, after creating the environment or installing the peers when needed.
    Progress goes to standard error, so that standard output carries only the result."""
    folder = environment_folder()
    python = os.path.join(folder, "bin", "python")
    if has_pinned_peers(python):
        return python
    if not os.access(python, os.X_OK):
        print(f"peers.py: creating the peers' virtual environment in {folder}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", folder], check=True, stdout=sys.stderr)
    print("peers.py: installing " + ", ".join(f"{n} {v}" for n, v in PEER_PACKAGES.items()) + " from PyPI",
          file=sys.stderr)
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    *(f"{n}=={v}" for n, v in PEER_PACKAGES.items())], check=True, stdout=sys.stderr)
    if not has_pinned_peers(python):
        sys.exit(f"peers.py: {python} still lacks the pinned peers {PEER_PACKAGES}")
    return python


def inside_environment():
    return os.path.realpath(sys.prefix) == os.path.realpath(environment_folder())


# --- Scenes, in Dynamics' points (y down) --------------------------------------------------------------

def pile_points(n):
    """Item centres and the container of the `pile` scene. The container is three static boxes 100 pt
    thick whose inner faces are the scene's boundary segments (floor at y = 0, walls at ±half width);
    each box is given as (centre x, centre y, half width, half height)."""
    columns = math.ceil(2.0 * math.sqrt(n))
    rows = (n + columns - 1) // columns
    left = -(columns - 1) * 60.0
    centres = []
    for i in range(n):
        jitter = 10.0 * (((i * 7919) % 201) - 100) / 100.0
        centres.append((left + 120.0 * (i % columns) + jitter, -(100.0 + 120.0 * (i // columns))))
    half_width = 60.0 * columns + 100.0
    height = 120.0 * rows + 1000.0
    walls = [
        (0.0, 50.0, half_width + 100.0, 50.0),  # below the floor, wider than the walls
        (-(half_width + 50.0), -height / 2.0, 50.0, height / 2.0),
        (half_width + 50.0, -height / 2.0, 50.0, height / 2.0),
    ]
    return centres, walls


def pyramid_points(n):
    """Item centres of the `pyramid` scene (Box2D's large_pyramid): the base b is the largest with
    b(b + 1)/2 ≤ n; row i holds b − i boxes of 100 pt touching edge to edge. The floor is a static box
    200 pt thick under y = 0, 200·b pt wide."""
    base = int((math.sqrt(8.0 * n + 1.0) - 1.0) / 2.0)
    centres = [(50.0 * (row + 1) + 100.0 * (k - row) - 50.0 * base, -(100.0 * row + 50.0))
               for row in range(base) for k in range(row, base)]
    return centres, [(0.0, 100.0, 100.0 * base, 100.0)]


def in_metres(point):
    """A point of Dynamics (pt, y down) in the peers' frame (m, y up)."""
    return point[0] / PT_PER_M, -point[1] / PT_PER_M


# --- Engines -------------------------------------------------------------------------------------------

def box2d_world(centres, walls, shape, workers, sleep):
    import pyb2d3 as b2

    pool = b2.ThreadPool(workers) if workers > 1 else None
    world = b2.World(thread_pool=pool, gravity=(0.0, -10.0))
    world.sleeping_enabled = sleep
    surface = b2.surface_material(friction=FRICTION, restitution=0.0)
    for (x, y, hw, hh) in walls:
        body = world.create_static_body(position=in_metres((x, y)))
        body.create_shape(b2.shape_def(material=surface), b2.box(hw / PT_PER_M, hh / PT_PER_M))
    outline = b2.box(0.5, 0.5) if shape == "box" else b2.circle(radius=0.5)
    solid = b2.shape_def(density=1.0, material=surface)
    for centre in centres:
        world.create_dynamic_body(position=in_metres(centre)).create_shape(solid, outline)

    def step():
        world.step(STEP, SUBSTEPS)

    return step, (world, pool)


def pymunk_space(centres, walls, shape, workers, sleep):
    import pymunk

    units = 10.0  # pymunk units per metre: its tolerances suit bodies of about 10 units
    space = pymunk.Space(threaded=workers > 1)
    if workers > 1:
        space.threads = workers
    if sleep:
        space.sleep_time_threshold = 0.5  # s at rest before sleeping, as Dynamics' rest time
    space.gravity = (0.0, -10.0 * units)
    for (x, y, hw, hh) in walls:
        body = pymunk.Body(body_type=pymunk.Body.STATIC)
        mx, my = in_metres((x, y))
        body.position = (mx * units, my * units)
        wall = pymunk.Poly.create_box(body, (2.0 * hw / PT_PER_M * units, 2.0 * hh / PT_PER_M * units))
        wall.friction = FRICTION
        space.add(body, wall)
    if shape == "box":  # 1 m × 1 m at density 1
        mass = 1.0
        moment = pymunk.moment_for_box(mass, (units, units))
    else:  # 1 m across
        mass = math.pi / 4.0
        moment = pymunk.moment_for_circle(mass, 0.0, units / 2.0)
    for centre in centres:
        body = pymunk.Body(mass, moment)
        mx, my = in_metres(centre)
        body.position = (mx * units, my * units)
        outline = pymunk.Poly.create_box(body, (units, units)) if shape == "box" else pymunk.Circle(body, units / 2.0)
        outline.friction = FRICTION
        space.add(body, outline)

    def step():
        space.step(STEP)  # pymunk has no substeps

    return step, space


# --- Timing --------------------------------------------------------------------------------------------

def parse(argv):
    p = argparse.ArgumentParser(description="Time a benchmark scene on a peer engine; one JSON line.")
    p.add_argument("--engine", choices=["box2d", "pymunk"])
    p.add_argument("--scene", choices=["pile", "pyramid"], default="pile")
    p.add_argument("--items", type=int, default=10000)
    p.add_argument("--shape", choices=["box", "circle"], default="box")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--steps", type=int, default=600)
    p.add_argument("--sleep", action="store_true",
                   help="let resting bodies sleep (off by default, as in Box2D's benchmarks)")
    p.add_argument("--print-python", action="store_true",
                   help="create the peers' virtual environment when needed, print its Python and exit")
    a = p.parse_args(argv)
    if not a.print_python and a.engine is None:
        p.error("the following arguments are required: --engine")
    if a.items < 1 or a.steps < 1 or a.workers < 1:
        p.error("--items, --steps and --workers must be at least 1")
    return a


def milliseconds(seconds):
    return round(1000.0 * seconds, 4)


def main(argv):
    a = parse(argv)
    if a.print_python:
        print(peer_python())
        return
    if not inside_environment():
        if os.environ.get("DYNAMICS_PEERS_REEXEC"):  # started by the environment's Python, yet not inside it
            sys.exit(f"peers.py: {sys.executable} does not run inside {environment_folder()}")
        python = peer_python()
        os.environ["DYNAMICS_PEERS_REEXEC"] = "1"
        os.execv(python, [python, os.path.abspath(__file__), *argv])

    centres, walls = (pile_points if a.scene == "pile" else pyramid_points)(a.items)
    build = box2d_world if a.engine == "box2d" else pymunk_space
    step, keep = build(centres, walls, a.shape, a.workers, a.sleep)
    step()  # one untimed step, as Box2D's own benchmarks and `dynamics bench`
    durations = []
    cpu_start = time.process_time()
    for _ in range(a.steps):
        start = time.perf_counter()
        step()
        durations.append(time.perf_counter() - start)
    cpu = time.process_time() - cpu_start
    print(json.dumps({
        "engine": a.engine, "scene": a.scene, "shape": a.shape, "items": len(centres),
        "workers": a.workers, "steps": a.steps,
        "ms_per_step_median": milliseconds(statistics.median(durations)),
        "ms_per_step_mean": milliseconds(sum(durations) / len(durations)),
        "cpu_ms_per_step": milliseconds(cpu / a.steps),
        "sleep": a.sleep,
        "ms_per_step_last60_median": milliseconds(statistics.median(durations[-60:])),
    }))
    del keep


if __name__ == "__main__":
    main(sys.argv[1:])
