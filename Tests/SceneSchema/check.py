#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks scene files against the scene-file JSON Schema.

Usage: python3 Tests/SceneSchema/check.py SCHEMA FILE...

Checks the schema itself (Draft 2020-12), makes sure it rejects a built-in list of invalid documents,
then validates each FILE (YAML when its name ends in .yaml or .yml, JSON otherwise) and prints one line
per file: "ok FILE", or "FAIL FILE" followed by every error with its JSON path. Exits 1 when anything
fails, 2 on a usage error.

Needs the jsonschema and PyYAML packages (pip install jsonschema pyyaml).
"""

import json
import math
import sys

import jsonschema
import yaml

# A small valid scene; each invalid sample below is this scene with one thing broken.
BASE = {
    "format": "dynamics-scene/1",
    "items": [{"id": "a", "shape": {"type": "rectangle", "width": 10, "height": 10}, "center": [0, 0]}],
}


def scene(**changes):
    """BASE with top-level keys replaced or added."""
    return {**BASE, **changes}


def item(**changes):
    """BASE's item with keys replaced or added."""
    return {**BASE["items"][0], **changes}


def field(region):
    return {"type": "field", "kind": "drag", "region": region}


def with_set(kind, prop, value):
    """A behaviour of `kind` with id "b" and an event setting its `prop` to `value`."""
    return scene(behaviors=[{"type": kind, "id": "b"}],
                 timeline=[{"time": 1, "set": {"behavior": "b", "property": prop, "value": value}}])


# (what is wrong, document): the schema must reject each one.
INVALID = [
    ("unknown top-level key", scene(colour="red")),
    ("no format", {"items": BASE["items"]}),
    ("wrong format string", scene(format="dynamics-scene/2")),
    ("no items or generators", {"format": "dynamics-scene/1"}),
    ("shape with negative width", scene(items=[item(shape={"type": "rectangle", "width": -10, "height": 10})])),
    ("unknown shape type", scene(items=[item(shape={"type": "triangle", "width": 10, "height": 10})])),
    ("circle with width", scene(items=[item(shape={"type": "circle", "radius": 5, "width": 10})])),
    ("polygon of two points", scene(items=[item(shape={"type": "polygon", "points": [[0, 0], [1, 1]]})])),
    ("item without center", scene(items=[{"id": "a", "shape": {"type": "circle", "radius": 5}}])),
    ("a pair with three numbers", scene(items=[item(center=[0, 0, 0])])),
    ("a number above 1e30", scene(items=[item(center=[1e31, 0])])),
    ("elasticity 1.5", scene(items=[item(material={"elasticity": 1.5})])),
    ("unknown material key", scene(items=[item(material={"bounciness": 1})])),
    ("bounds with zero height", scene(bounds={"x": 0, "y": 0, "width": 10, "height": 0})),
    ("substeps not whole", scene(configuration={"substeps": 2.5})),
    ("unknown simd level", scene(configuration={"simd": "mmx"})),
    ("grid generator without spacing",
     scene(generators=[{"type": "grid", "id": "g", "count": 4, "shape": {"type": "circle", "radius": 5}}])),
    ("random generator with grid key",
     scene(generators=[{"type": "random", "id": "g", "count": 4, "shape": {"type": "circle", "radius": 5},
                        "rect": {"x": 0, "y": 0, "width": 100, "height": 100}, "columns": 2}])),
    ("behaviour with unknown key", scene(behaviors=[{"type": "gravity", "strength": 1}])),
    ("unknown behaviour type", scene(behaviors=[{"type": "spin"}])),
    ("gravity with direction and angle", scene(behaviors=[{"type": "gravity", "direction": [0, 1], "angle": 1}])),
    ("snap without item", scene(behaviors=[{"type": "snap", "point": [0, 0]}])),
    ("snap with damping and dampingRatio",
     scene(behaviors=[{"type": "snap", "item": "a", "point": [0, 0], "damping": 0.5, "dampingRatio": 0.5}])),
    ("rope with frequency",
     scene(behaviors=[{"type": "attachment", "item": "a", "anchor": [0, 0], "kind": "rope", "frequency": 2}])),
    ("slider without axis", scene(behaviors=[{"type": "attachment", "item": "a", "anchor": [0, 0], "kind": "slider"}])),
    ("slider with axis [0, 0]",
     scene(behaviors=[{"type": "attachment", "item": "a", "anchor": [0, 0], "kind": "slider", "axis": [0, 0]}])),
    ("unknown field kind", scene(behaviors=[{"type": "field", "kind": "gravity"}])),
    ("region with two keys", scene(behaviors=[field({"radius": 10, "size": [10, 10]})])),
    ("union of one region", scene(behaviors=[field({"union": ["infinite"]})])),
    ("region string other than infinite", scene(behaviors=[field("everywhere")])),
    ("boundary without id",
     scene(behaviors=[{"type": "collision", "boundaries": [{"type": "segment", "from": [0, 0], "to": [1, 0]}]}])),
    ("boundsAsBoundary without bounds", scene(behaviors=[{"type": "collision", "boundsAsBoundary": True}])),
    ("64 collision behaviours", scene(behaviors=[{"type": "collision"}] * 64)),
    ("event with two actions", scene(timeline=[{"time": 1, "remove": "x", "add": {"type": "gravity"}}])),
    ("event with no action", scene(timeline=[{"time": 1}])),
    ("event at a negative time", scene(timeline=[{"time": -1, "remove": "x"}])),
    ("event adding a collision", scene(timeline=[{"time": 1, "add": {"type": "collision"}}])),
    ("set of an unknown property", with_set("gravity", "colour", 1)),
    ("set of a boolean property to a number", with_set("push", "active", 1)),
    ("set of elasticity to 2", with_set("item", "elasticity", 2)),
]


class SceneLoader(yaml.SafeLoader):
    """PyYAML's safe loader, with dates left as strings, as the Swift reader (Yams) reads them."""


SceneLoader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def reject_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def load(path):
    """The document in `path`: YAML by extension, JSON otherwise (without NaN and Infinity)."""
    with open(path, encoding="utf-8") as f:
        if path.lower().endswith((".yaml", ".yml")):
            return yaml.load(f, Loader=SceneLoader)
        return json.load(f, parse_constant=reject_constant)


def non_finite(value, path=""):
    """JSON paths of NaN and infinite numbers (YAML's .nan and .inf), which a schema cannot rule out."""
    if isinstance(value, float) and not math.isfinite(value):
        return [path or "/"]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in non_finite(v, f"{path}/{k}")]
    if isinstance(value, list):
        return [p for k, v in enumerate(value) for p in non_finite(v, f"{path}/{k}")]
    return []


def problems(validator, document):
    """Every problem of `document` as "PATH: message" lines, in document order."""
    out = [f"{p}: must be a finite number" for p in non_finite(document)]
    def position(error):  # array indices in numeric order
        return [(0, p, "") if isinstance(p, int) else (1, 0, str(p)) for p in error.absolute_path]

    errors = sorted(validator.iter_errors(document), key=position)
    for error in errors:
        path = "".join(f"/{p}" for p in error.absolute_path) or "/"
        message = error.message
        described = isinstance(error.schema, dict) and "description" in error.schema
        if error.validator in ("not", "oneOf", "anyOf") and described:
            # jsonschema's own words would repeat the whole value; the schema says what is meant.
            message = error.schema["description"]
        elif error.context:  # oneOf/anyOf: add the nearest branch's reason
            best = jsonschema.exceptions.best_match(error.context)
            inner = "".join(f"/{p}" for p in best.absolute_path) or "/"
            message += f" (nearest: {inner}: {best.message})"
        out.append(f"{path}: {message}")
    return out


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    failed = False
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.exceptions.SchemaError as error:
        print(f"FAIL {argv[1]}: not a valid Draft 2020-12 schema: {error.message}")
        return 1
    validator = jsonschema.Draft202012Validator(schema)

    if problems(validator, BASE):
        print("FAIL the schema rejects the valid base of the invalid samples")
        failed = True
    for what, document in INVALID:
        if not problems(validator, document):
            print(f"FAIL the schema accepts an invalid sample: {what}")
            failed = True
    if not failed:
        print(f"ok the schema rejects {len(INVALID)} invalid samples")

    for path in argv[2:]:
        try:
            document = load(path)
        except (OSError, ValueError, yaml.YAMLError) as error:
            print(f"FAIL {path}\n  cannot read: {error}")
            failed = True
            continue
        found = problems(validator, document)
        if found:
            print(f"FAIL {path}")
            for line in found:
                print(f"  {line}")
            failed = True
        else:
            print(f"ok {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
