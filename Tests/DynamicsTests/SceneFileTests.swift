// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Scene files (format dynamics-scene/1): reading with every problem reported, building the world, and the
/// timeline, checked against the package's laws (free fall, impulses, resistance, generators' layouts).
@Suite struct SceneFileTests {
    /// A scene with one 100 × 100 pt square (mass 1) and the given extra top-level JSON.
    static func squareScene(_ behaviors: String, timeline: String = "[]", extra: String = "") -> String {
        """
        {"format": "dynamics-scene/1", "configuration": {"workers": 1}, \(extra)
         "items": [{"id": "square", "shape": {"type": "rectangle", "width": 100, "height": 100}, "center": [0, 0]}],
         "behaviors": \(behaviors), "timeline": \(timeline)}
        """
    }

    static func run(_ json: String, seconds: Double) throws -> SceneRun {
        let run = try SceneRun(try SceneDocument.parse(Data(json.utf8)))
        while run.time < seconds - 1e-9 { try run.step() }
        return run
    }

    static func problems(_ json: String, yaml: Bool = false, limits: SceneLimits = .init()) -> [SceneProblem] {
        SceneDocument.read(Data(json.utf8), yaml: yaml, limits: limits).1
    }

    @Test("a falling square comes to rest on the bounds' bottom edge, centre 50 pt above it")
    func restsOnBounds() throws {
        let scene = """
            {"format": "dynamics-scene/1", "bounds": {"x": 0, "y": 0, "width": 400, "height": 600},
             "configuration": {"workers": 1},
             "items": [{"id": "square", "shape": {"type": "rectangle", "width": 100, "height": 100}, "center": [200, 100]}],
             "behaviors": [{"type": "gravity"}, {"type": "collision", "boundsAsBoundary": true}]}
            """
        let run = try Self.run(scene, seconds: 3)
        let y = run.world.pose(of: run.itemIDs[0]).center.y
        #expect(abs(y - 550) < 0.5, "rests at y = \(y)")
        #expect(run.world.awakeItemCount == 0)
    }

    @Test("free fall, then the timeline sets the gravity to zero, removes it, or adds one")
    func timelineGravity() throws {
        // 60 steps of 1000 pt/s² (semi-implicit Euler) give 1000 pt/s after 1 s; without gravity it stays.
        let off = try Self.run(Self.squareScene(#"[{"type": "gravity", "id": "g"}]"#,
                                                timeline: #"[{"time": 1, "set": {"behavior": "g", "property": "gravityDirection", "value": [0, 0]}}]"#),
                               seconds: 2)
        #expect(abs(off.world.velocity(of: off.itemIDs[0]).dy - 1000) < 0.01)
        let removed = try Self.run(Self.squareScene(#"[{"type": "gravity", "id": "g"}]"#, timeline: #"[{"time": 1, "remove": "g"}]"#),
                                   seconds: 2)
        #expect(abs(removed.world.velocity(of: removed.itemIDs[0]).dy - 1000) < 0.01)
        let added = try Self.run(Self.squareScene("[]", timeline: #"[{"time": 1, "add": {"type": "gravity", "magnitude": 0.5, "angle": 0}}]"#),
                                 seconds: 2)
        let v = added.world.velocity(of: added.itemIDs[0])
        #expect(abs(v.dx - 500) < 0.01 && abs(v.dy) < 1e-6, "\(v)")
    }

    @Test("an instantaneous push set active by the timeline changes the velocity by 100 · p / m once")
    func timelineFlick() throws {
        let scene = Self.squareScene(#"[{"type": "push", "id": "flick", "mode": "instantaneous", "vector": [2, 0], "active": false}]"#,
                                     timeline: #"[{"time": 0.5, "set": {"behavior": "flick", "property": "active", "value": true}}]"#)
        let early = try Self.run(scene, seconds: 0.5)
        #expect(early.world.velocity(of: early.itemIDs[0]).dx == 0)
        let late = try Self.run(scene, seconds: 1)
        #expect(abs(late.world.velocity(of: late.itemIDs[0]).dx - 200) < 1e-3)
        #expect(abs(late.world.pose(of: late.itemIDs[0]).center.x - 100) < 1e-2, "moved 200 pt/s for 0.5 s")
    }

    @Test("a repeating event happens every 'every' s, 'count' times: three flicks of 200 pt/s each, then no more")
    func repeatingEvents() throws {
        let scene = Self.squareScene(#"[{"type": "push", "id": "flick", "mode": "instantaneous", "vector": [2, 0], "active": false}]"#,
                                     timeline: #"""
                                         [{"time": 0.5, "repeat": {"every": 1, "count": 3}, "set": {"behavior": "flick", "property": "active", "value": true}},
                                          {"time": 0.75, "repeat": {"every": 1}, "set": {"behavior": "flick", "property": "active", "value": false}}]
                                         """#)
        for (seconds, expected) in [(1.0, 200.0), (2.0, 400), (3.0, 600), (5.0, 600)] {
            let run = try Self.run(scene, seconds: seconds)
            #expect(abs(run.world.velocity(of: run.itemIDs[0]).dx - expected) < 1e-2, "after \(seconds) s")
        }
        let document = try SceneDocument.parse(Data(scene.utf8))
        #expect(SceneDocument.read(Data(document.json.utf8), yaml: false).0 == document, "repeat reads back")
        #expect(document.timeline[0].repeating?.every == 1 && document.timeline[0].repeating?.count == 3)
        #expect(document.timeline[1].repeating?.count == nil)
        let tooOften = scene.replacingOccurrences(of: #""every": 1, "count": 3"#, with: #""every": 0, "count": 3"#)
        #expect(Self.problems(tooOften).contains { $0.path == "/timeline/0/repeat/every" })
    }

    @Test("an item behaviour's resistance damps as v / (1 + h·c) per substep")
    func itemBehaviorResistance() throws {
        let scene = """
            {"format": "dynamics-scene/1", "configuration": {"workers": 1},
             "items": [{"id": "a", "shape": {"type": "circle", "radius": 10}, "center": [0, 0], "velocity": [100, 0]}],
             "behaviors": [{"type": "item", "items": ["a"], "resistance": 2}]}
            """
        let run = try Self.run(scene, seconds: 1)
        let expected: Double = 100 / pow(1 + 2.0 / 240, 240.0)
        #expect(abs(Double(run.world.velocity(of: run.itemIDs[0]).dx) - expected) < 1e-3 * expected)
    }

    @Test("a rod attachment to a fixed point keeps a swinging item at its length")
    func rodPendulum() throws {
        let scene = """
            {"format": "dynamics-scene/1", "configuration": {"workers": 1},
             "items": [{"id": "bob", "shape": {"type": "circle", "radius": 10}, "center": [200, 0]}],
             "behaviors": [{"type": "gravity"}, {"type": "attachment", "item": "bob", "anchor": [0, 0], "itemAnchor": [200, 0]}]}
            """
        let run = try SceneRun(try SceneDocument.parse(Data(scene.utf8)))
        var worst = 0.0
        for _ in 0..<180 {
            try run.step()
            let c = run.world.pose(of: run.itemIDs[0]).center
            worst = max(worst, abs(Double(hypot(c.x, c.y)) - 200))
        }
        #expect(worst < 2, "the rod stretched or shrank by \(worst) pt")
    }

    @Test("a pin's motor in a scene file turns its item at motorSpeed, and reads back")
    func pinMotor() throws {
        let scene = """
            {"format": "dynamics-scene/1", "configuration": {"workers": 1},
             "items": [{"id": "wheel", "shape": {"type": "circle", "radius": 50}, "center": [0, 0]}],
             "behaviors": [{"type": "attachment", "item": "wheel", "anchor": [0, 0], "kind": "pin", "motorSpeed": 2,
                            "maximumMotorTorque": 1e6}]}
            """
        let run = try Self.run(scene, seconds: 0.5)
        #expect(abs(run.world.angularVelocity(of: run.itemIDs[0]) - 2) < 1e-4, "ω \(run.world.angularVelocity(of: run.itemIDs[0]))")
        let document = try SceneDocument.parse(Data(scene.utf8))
        #expect(SceneDocument.read(Data(document.json.utf8), yaml: false).0 == document, "the motor reads back")
        #expect(document.json.contains("\"maximumMotorTorque\""))
        // A sprung pin settles at its rest angle, and its spring reads back.
        let sprung = """
            {"format": "dynamics-scene/1", "configuration": {"workers": 1},
             "items": [{"id": "wheel", "shape": {"type": "circle", "radius": 50}, "center": [0, 0]}],
             "behaviors": [{"type": "attachment", "item": "wheel", "anchor": [0, 0], "kind": "pin", "angularFrequency": 2,
                            "angularDamping": 1, "restAngle": 0.4}]}
            """
        let settled = try Self.run(sprung, seconds: 3)
        #expect(abs(settled.world.pose(of: settled.itemIDs[0]).angle - 0.4) < 1e-3)
        let springDocument = try SceneDocument.parse(Data(sprung.utf8))
        #expect(SceneDocument.read(Data(springDocument.json.utf8), yaml: false).0 == springDocument, "the spring reads back")
        // A slider's motor drives its item along the axis at motorSpeed.
        let slid = """
            {"format": "dynamics-scene/1", "configuration": {"workers": 1},
             "items": [{"id": "box", "shape": {"type": "rectangle", "width": 20, "height": 20}, "center": [0, 0]}],
             "behaviors": [{"type": "attachment", "item": "box", "anchor": [0, 0], "kind": "slider", "axis": [0, 1],
                            "motorSpeed": 40, "maximumMotorForce": 100}]}
            """
        let slidRun = try Self.run(slid, seconds: 0.5)
        #expect(abs(slidRun.world.velocity(of: slidRun.itemIDs[0]).dy - 40) < 1e-3)
        // The timeline sets a motor's speed, and a sprung pin's rest angle.
        let timed = """
            {"format": "dynamics-scene/1", "configuration": {"workers": 1},
             "items": [{"id": "wheel", "shape": {"type": "circle", "radius": 50}, "center": [0, 0]},
                       {"id": "flap", "shape": {"type": "circle", "radius": 50}, "center": [500, 0]}],
             "behaviors": [{"type": "attachment", "id": "drive", "item": "wheel", "anchor": [0, 0], "kind": "pin"},
                           {"type": "attachment", "id": "hinge", "item": "flap", "anchor": [500, 0], "kind": "pin",
                            "angularFrequency": 2, "angularDamping": 1}],
             "timeline": [{"time": 0.5, "set": {"behavior": "drive", "property": "motorSpeed", "value": -2}},
                          {"time": 0.5, "set": {"behavior": "hinge", "property": "restAngle", "value": 0.3}}]}
            """
        let timedRun = try Self.run(timed, seconds: 4)
        #expect(abs(timedRun.world.angularVelocity(of: timedRun.itemIDs[0]) + 2) < 1e-4)
        #expect(abs(timedRun.world.pose(of: timedRun.itemIDs[1]).angle - 0.3) < 1e-3)
        let slidDocument = try SceneDocument.parse(Data(slid.utf8))
        #expect(SceneDocument.read(Data(slidDocument.json.utf8), yaml: false).0 == slidDocument, "the slider's motor reads back")
    }

    @Test("attached items pass through each other unless the attachment says collide: true")
    func attachedItemsCollide() throws {
        // Two circles 40 pt apart joined by a rope of 100 pt, thrown at each other: without collisions
        // they pass through (their centres cross), with them they bounce off.
        func scene(_ collide: Bool) -> String {
            """
            {"format": "dynamics-scene/1", "configuration": {"workers": 1},
             "items": [{"id": "a", "shape": {"type": "circle", "radius": 10}, "center": [0, 0], "velocity": [200, 0]},
                       {"id": "b", "shape": {"type": "circle", "radius": 10}, "center": [40, 0], "velocity": [-200, 0]}],
             "behaviors": [{"type": "collision"},
                           {"type": "attachment", "item": "a", "to": "b", "anchor": [40, 0], "itemAnchor": [0, 0],
                            "kind": "rope", "length": 100, "collide": \(collide)}]}
            """
        }
        let apart = try Self.run(scene(false), seconds: 0.15), together = try Self.run(scene(true), seconds: 0.15)
        func order(_ run: SceneRun) -> Double {
            run.world.pose(of: run.itemIDs[1]).center.x - run.world.pose(of: run.itemIDs[0]).center.x
        }
        #expect(order(apart) < -15, "without collisions the circles pass through: \(order(apart))")
        #expect(order(together) > 15, "with collisions they bounce: \(order(together))")
        let document = try SceneDocument.parse(Data(scene(true).utf8))
        #expect(SceneDocument.read(Data(document.json.utf8), yaml: false).0 == document, "collide reads back")
    }

    @Test("a group of shapes moves as one body: mass, inertia by parallel axes, placed by its centre of mass")
    func groupShape() throws {
        // A dumbbell: circles of radius 20 at (−50, 0) and (50, 0) and a 60 × 10 bar between them, from x = −20.
        let scene = """
            {"format": "dynamics-scene/1", "bounds": {"x": -200, "y": -200, "width": 400, "height": 400},
             "configuration": {"workers": 1},
             "items": [{"id": "bell", "center": [0, 0], "shape": {"type": "group", "parts": [
                 {"shape": {"type": "circle", "radius": 20}, "offset": [-50, 0]},
                 {"shape": {"type": "circle", "radius": 20}, "offset": [50, 0]},
                 {"shape": {"type": "rectangle", "width": 60, "height": 10}, "offset": [10, 0], "angle": 0}]}}],
             "behaviors": [{"type": "gravity"}, {"type": "collision", "boundsAsBoundary": true}]}
            """
        let document = try SceneDocument.parse(Data(scene.utf8))
        #expect(try SceneDocument.parse(Data(document.json.utf8)) == document)
        let run = try SceneRun(document)
        let disc = Double.pi * 40 * 40 / 4 / 10_000, bar = 60.0 * 10 / 10_000
        let mass = 2 * disc + bar, cx = bar * 10 / mass
        let inertia = 2 * disc * 3200 / 16 + disc * (50 + cx) * (50 + cx) + disc * (50 - cx) * (50 - cx)
            + bar * (3600 + 100) / 12 + bar * (10 - cx) * (10 - cx)
        let id = run.itemIDs[0]
        #expect(abs(Double(run.world.mass(of: id)) - mass) < 1e-6 * mass)
        #expect(abs(Double(run.world.inertia(of: id)) - inertia) < 1e-4 * inertia)
        #expect(abs(Double(run.world.pose(of: id).center.x) - cx) < 1e-4)
        while run.time < 3 { try run.step() }
        // It lands on both circles: its centre of mass 20 pt above the floor (y = 200).
        let pose = run.world.pose(of: id)
        #expect(abs(Double(pose.center.y) - 180) < 0.5 && abs(Double(pose.angle)) < 0.01, "\(pose)")
    }

    @Test("a grid generator names its items prefix-N and lays them out row by row")
    func gridGenerator() throws {
        let scene = """
            {"format": "dynamics-scene/1",
             "generators": [{"type": "grid", "id": "g", "count": 12, "columns": 4, "origin": [10, 20], "spacing": [50, 60],
                             "shape": {"type": "rectangle", "width": 20, "height": 10}, "material": {"density": 2}}]}
            """
        let run = try SceneRun(try SceneDocument.parse(Data(scene.utf8)))
        #expect(run.itemNames == (0..<12).map { "g-\($0)" })
        #expect(run.world.pose(of: run.itemIDs[5]).center == CGPoint(x: 60, y: 80))
        #expect(abs(run.world.mass(of: run.itemIDs[0]) - 2 * 20 * 10 / 10_000) < 1e-6)
        #expect(run.indices(of: SceneTargets(tags: ["g"])).count == 12)
    }

    @Test("a random generator is reproducible from its seeds, stays in its rectangle and size range")
    func randomGenerator() throws {
        func scene(_ seed: Int) -> String {
            """
            {"format": "dynamics-scene/1", "configuration": {"seed": \(seed)},
             "generators": [{"type": "random", "id": "r", "count": 200, "rect": {"x": 0, "y": 0, "width": 500, "height": 300},
                             "minSize": [10, 10], "maxSize": [30, 20], "shape": {"type": "rectangle", "width": 1, "height": 1}}]}
            """
        }
        let a = try SceneRun(try SceneDocument.parse(Data(scene(1).utf8)))
        let b = try SceneRun(try SceneDocument.parse(Data(scene(1).utf8)))
        let c = try SceneRun(try SceneDocument.parse(Data(scene(2).utf8)))
        let pa = a.itemIDs.map { a.world.pose(of: $0).center }
        #expect(pa == b.itemIDs.map { b.world.pose(of: $0).center })
        #expect(pa != c.itemIDs.map { c.world.pose(of: $0).center })
        #expect(pa.allSatisfy { (0...500).contains($0.x) && (0...300).contains($0.y) })
        let masses = a.itemIDs.map { Double(a.world.mass(of: $0)) }
        #expect(masses.allSatisfy { (0.01 - 1e-9...0.06 + 1e-9).contains($0) }, "areas 100…600 pt²")
    }

    @Test("JSON and YAML of one scene run to the same state, at 1 and 2 workers")
    func formatsAndWorkers() throws {
        let json = """
            {"format": "dynamics-scene/1", "bounds": {"x": 0, "y": 0, "width": 600, "height": 600},
             "generators": [{"type": "grid", "id": "box", "count": 60, "columns": 10, "origin": [50, 50], "spacing": [50, 45],
                             "shape": {"type": "rectangle", "width": 40, "height": 40}, "material": {"friction": 0.4}}],
             "behaviors": [{"type": "gravity"}, {"type": "collision", "boundsAsBoundary": true}]}
            """
        let yaml = """
            format: dynamics-scene/1
            bounds: {x: 0, y: 0, width: 600, height: 600}
            generators:
              - type: grid
                id: box
                count: 60
                columns: 10
                origin: [50, 50]
                spacing: [50, 45]
                shape: {type: rectangle, width: 40, height: 40}
                material: {friction: 0.4}
            behaviors:
              - type: gravity
              - {type: collision, boundsAsBoundary: true}
            """
        var hashes: [UInt64] = []
        for (text, isYAML) in [(json, false), (yaml, true)] {
            for workers in [1, 2] {
                let document = try SceneDocument.parse(Data(text.utf8), yaml: isYAML)
                var configuration = document.configuration.dynamics
                configuration.workerCount = workers
                let run = try SceneRun(document, configuration: configuration)
                for _ in 0..<90 { try run.step() }
                hashes.append(run.world.stateHash())
            }
        }
        #expect(Set(hashes).count == 1, "\(hashes.map { String($0, radix: 16) })")
    }

    /// Malformed scenes: each with the path and a fragment of the message the reader must report.
    static let malformed: [(String, String, String)] = [
        (#"{"items": []}"#, "", "missing key 'format'"),
        (#"{"format": "dynamics-scene/2", "items": []}"#, "/format", "must be 'dynamics-scene/1'"),
        (#"{"format": "dynamics-scene/1"}"#, "", "no items"),
        (#"{"format": "dynamics-scene/1", "itmes": []}"#, "/itmes", "did you mean 'items'"),
        (#"{"format": "dynamics-scene/1", "items": {}}"#, "/items", "must be an array"),
        (#"{"format": "dynamics-scene/1", "items": [{"shape": {"type": "circle", "radius": 5}, "center": [0, 0]}]}"#, "/items/0", "missing key 'id'"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": -5}, "center": [0, 0]}]}"#,
         "/items/0/shape/radius", "must be > 0, got -5"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": "5"}, "center": [0, 0]}]}"#,
         "/items/0/shape/radius", "must be a number, got a string"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "hexagon"}, "center": [0, 0]}]}"#,
         "/items/0/shape/type", "must be one of"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0]}]}"#,
         "/items/0/center", "got an array of 1"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 1e39]}]}"#,
         "/items/0/center/1", "got 1e+39"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "polygon", "points": [[0,0],[10,0],[5,2],[10,10],[0,10]]}, "center": [0, 0]}]}"#,
         "/items/0/shape/points", "concave"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "polygon", "points": [[0,0],[10,10],[10,0],[0,10]]}, "center": [0, 0]}]}"#,
         "/items/0/shape/points", "concave"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "polygon", "points": [[0,0],[1,1],[2,2]]}, "center": [0, 0]}]}"#,
         "/items/0/shape/points", "collinear"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}, {"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}]}"#,
         "/items/1/id", "duplicate item id 'a'"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0], "material": {"elasticity": 1.5}}]}"#,
         "/items/0/material/elasticity", "must be in 0…1"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0], "material": {"density": 0}}]}"#,
         "/items/0/material/density", "must be >"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "snap", "item": "b", "point": [0, 0]}]}"#,
         "/behaviors/0/item", "no item has the id 'b'"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "gravity", "tags": ["boxes"]}]}"#,
         "/behaviors/0/tags/0", "no item or generator has the tag 'boxes'"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "attachment", "item": "a", "to": "a", "anchor": [0, 0]}]}"#,
         "/behaviors/0/to", "attached to itself"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "attachment", "item": "a", "anchor": [0, 0], "kind": "slider"}]}"#,
         "/behaviors/0", "missing key 'axis'"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "attachment", "item": "a", "anchor": [0, 0], "motorSpeed": 1}]}"#,
         "/behaviors/0/motorSpeed", "does not apply to a rod attachment"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "attachment", "item": "a", "anchor": [0, 0], "kind": "pin", "maximumMotorTorque": 1}]}"#,
         "/behaviors/0/maximumMotorTorque", "needs 'motorSpeed'"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "attachment", "item": "a", "anchor": [0, 0], "kind": "pin", "motorSpeed": 1, "maximumMotorTorque": -1}]}"#,
         "/behaviors/0/maximumMotorTorque", "must be ≥ 0, got -1"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "attachment", "item": "a", "anchor": [0, 0], "kind": "pin", "restAngle": 1}]}"#,
         "/behaviors/0/restAngle", "needs 'angularFrequency'"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "attachment", "item": "a", "anchor": [0, 0], "kind": "weld", "angularFrequency": 1}]}"#,
         "/behaviors/0/angularFrequency", "does not apply to a weld attachment"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "attachment", "item": "a", "anchor": [0, 0], "kind": "pin", "motorSpeed": 1, "maximumMotorForce": 1}]}"#,
         "/behaviors/0/maximumMotorForce", "does not apply to a pin attachment"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "collision", "boundsAsBoundary": true}]}"#,
         "/behaviors/0/boundsAsBoundary", "needs the scene's 'bounds'"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "timeline": [{"time": 1, "remove": "nothing"}]}"#,
         "/timeline/0/remove", "no behaviour has the id 'nothing'"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "push", "id": "p"}], "timeline": [{"time": 1, "set": {"behavior": "p", "property": "actve", "value": true}}]}"#,
         "/timeline/0/set/property", "no settable property 'actve'"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "push", "id": "p"}], "timeline": [{"time": 1, "set": {"behavior": "p", "property": "active", "value": 1}}]}"#,
         "/timeline/0/set/value", "must be true or false"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "timeline": [{"time": -1, "velocity": {}}]}"#,
         "/timeline/0/time", "must be in 0…1000000, got -1"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "timeline": [{"time": 1, "add": {"type": "gravity"}, "remove": "g"}]}"#,
         "/timeline/0", "one action per event"),
        (#"{"format": "dynamics-scene/1", "configuration": {"substeps": 0}, "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}]}"#,
         "/configuration/substeps", "must be in 1…64"),
        (#"{"format": "dynamics-scene/1", "configuration": {"seed": 1.5}, "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}]}"#,
         "/configuration/seed", "whole number"),
        (#"{"format": "dynamics-scene/1", "configuration": {"adaptiveSubsteps": 1}, "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}]}"#,
         "/configuration/adaptiveSubsteps", "must be true or false"),
        (#"{"format": "dynamics-scene/1", "generators": [{"type": "grid", "id": "g", "count": 0, "spacing": [1, 1], "shape": {"type": "circle", "radius": 5}}]}"#,
         "/generators/0/count", "must be in 1…"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "g-1", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "generators": [{"type": "grid", "id": "g", "count": 3, "spacing": [1, 1], "shape": {"type": "circle", "radius": 5}}]}"#,
         "/generators/0/id", "makes the id 'g-1'"),
        ("{\"format\": \"dynamics-scene/1\",\n \"items\": [x]}", "", "not valid JSON: Invalid value at line 2, column 12"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "center": [0, 0], "shape": {"type": "group", "parts": [{"shape": {"type": "group", "parts": []}}]}}]}"#,
         "/items/0/shape/parts/0/shape/type", "must be one of rectangle, ellipse, circle, polygon, hull, capsule, roundedRectangle, got 'group'"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "center": [0, 0], "shape": {"type": "group", "parts": []}}]}"#,
         "/items/0/shape/parts", "1 to 64 parts"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "gravity", "magnitude": 1e30}]}"#,
         "/behaviors/0/magnitude", "must be within ±1000000 on each axis"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}], "behaviors": [{"type": "gravity", "direction": [0, -2e6]}]}"#,
         "/behaviors/0/direction", "must be within ±1000000 on each axis"),
        (#"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": 2e7}, "center": [0, 0]}]}"#,
         "/items/0/shape/radius", "must be"),
    ]

    @Test("the configuration's adaptiveSubsteps reaches the world's configuration, and defaults to true")
    func adaptiveSubsteps() throws {
        let item = #"[{"id": "a", "shape": {"type": "circle", "radius": 5}, "center": [0, 0]}]"#
        let off = try SceneDocument.parse(Data(#"{"format": "dynamics-scene/1", "configuration": {"adaptiveSubsteps": false}, "items": \#(item)}"#.utf8))
        let plain = try SceneDocument.parse(Data(#"{"format": "dynamics-scene/1", "items": \#(item)}"#.utf8))
        #expect(!off.configuration.dynamics.adaptiveSubsteps)
        #expect(plain.configuration.dynamics.adaptiveSubsteps)
    }

    @Test("every malformed scene reports its problem at its path", arguments: malformed.indices)
    func malformedScene(k: Int) {
        let (text, path, fragment) = Self.malformed[k]
        let problems = Self.problems(text)
        #expect(problems.contains { $0.path == path && $0.message.contains(fragment) && $0.severity == .error },
                "expected \(path): …\(fragment)…, got \(problems)")
        #expect(SceneDocument.read(Data(text.utf8), yaml: false).0 == nil)
    }

    @Test("a file with several problems reports them all")
    func everyProblem() {
        let text = #"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": -1}, "center": [0, 0], "material": {"frction": 1}}, {"id": "b", "shape": {"type": "circle", "radius": 1}, "center": "here"}]}"#
        let paths = Set(Self.problems(text).map(\.path))
        #expect(paths == ["/items/0/shape/radius", "/items/0/material/frction", "/items/1/center"])
    }

    @Test("an item overlapping a boundary it collides with is a warning, not an error; one resting on it is neither")
    func overlapWarning() throws {
        let text = """
            {"format": "dynamics-scene/1", "bounds": {"x": 0, "y": 0, "width": 400, "height": 600},
             "items": [{"id": "a", "shape": {"type": "rectangle", "width": 100, "height": 100}, "center": [20, 100]},
                       {"id": "b", "shape": {"type": "rectangle", "width": 100, "height": 100}, "center": [200, 550]},
                       {"id": "c", "shape": {"type": "circle", "radius": 10}, "center": [200, 395], "angle": 0.3},
                       {"id": "d", "shape": {"type": "circle", "radius": 10}, "center": [50, 50]}],
             "behaviors": [{"type": "collision", "boundsAsBoundary": true,
                            "boundaries": [{"type": "segment", "id": "shelf", "from": [100, 400], "to": [300, 400]}]},
                           {"type": "collision", "mode": "items", "boundaries": [{"type": "segment", "id": "ghost", "from": [0, 50], "to": [99, 50]}]}]}
            """
        let (document, problems) = SceneDocument.read(Data(text.utf8), yaml: false)
        #expect(document != nil)
        #expect(problems.map(\.description) == ["/items/0: warning: item 'a' overlaps the reference bounds at the start",
                                                "/items/2: warning: item 'c' overlaps boundary 'shelf' at the start"])
    }

    @Test("limits refuse oversized, overpopulated and deeply nested files before building anything")
    func limits() {
        var small = SceneLimits()
        small.bytes = 100
        #expect(Self.problems(Self.squareScene("[]"), limits: small).first?.message.contains("larger than the limit") == true)
        var few = SceneLimits()
        few.items = 1000
        let crowd = #"{"format": "dynamics-scene/1", "generators": [{"type": "grid", "id": "g", "count": 5000, "spacing": [1, 1], "shape": {"type": "circle", "radius": 1}}]}"#
        #expect(Self.problems(crowd, limits: few).contains { $0.message.contains("more than the limit of 1000") })
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.problems(deep).first?.message.contains("nesting deeper") == true)
        let deepYAML = (0..<200).map { String(repeating: "  ", count: $0) + "a\($0):" }.joined(separator: "\n")
        #expect(Self.problems(deepYAML, yaml: true).first?.message.contains("nesting deeper") == true)
        // "Billion laughs": nine levels of ten aliases stand for 10⁹ values in 300 bytes.
        let laughs = (["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + (1..<9).map { i in
            "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]"
        } + ["format: dynamics-scene/1", "items: *a8"]).joined(separator: "\n")
        #expect(Self.problems(laughs, yaml: true).first?.message.contains("expands to more values") == true)
    }
}

/// Every built-in scene is a scene file: its export reads back to the same document and runs to the same
/// state as the built-in.
@Suite struct BuiltInExportTests {
    @Test("each built-in's export reads back to its document and runs to the built-in's state hash",
          arguments: Scene.builtIn.map(\.name))
    func export(name: String) throws {
        let scene = try #require(Scene.named(name))
        let items = min(scene.defaultItems, name.contains("pyramid") ? 220 : 150)
        let document = scene.document(items: items)
        let text = document.json
        let parsed = try SceneDocument.parse(Data(text.utf8))
        #expect(parsed == document)
        var configuration = DynamicsConfiguration()
        configuration.workerCount = 1
        let builtIn = try scene.makeRun(items: items, configuration: configuration) // its timeline too (junkyard)
        let world = builtIn.world
        var fromFile = parsed.configuration.dynamics
        fromFile.workerCount = 1
        let run = try SceneRun(parsed, configuration: fromFile)
        for _ in 0..<30 {
            try builtIn.step()
            try run.step()
        }
        #expect(run.world.stateHash() == world.stateHash())
        #expect(run.world.itemCount == world.itemCount)
    }
}

/// The example scene files that ship with the package read without problems and run.
@Suite struct ExampleSceneTests {
    @Test("every example scene file is valid and runs its duration to a finite state")
    func examples() throws {
        let files = SceneDocument.exampleFiles
        #expect(files.count >= 2)
        for url in files {
            var warnings: [SceneProblem] = []
            let document = try SceneDocument.load(contentsOf: url) { warnings.append($0) }
            #expect(warnings.isEmpty, "\(url.lastPathComponent): \(warnings)")
            let run = try SceneRun(document)
            while run.time < document.configuration.duration - 1e-9 { try run.step() }
            #expect(run.world.kineticEnergy.isFinite, "\(url.lastPathComponent)")
        }
    }

    @Test("the schema that ships is JSON and names the format")
    func schema() throws {
        let object = try JSONSerialization.jsonObject(with: Data(SceneDocument.schema.utf8)) as? [String: Any]
        #expect(object?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(SceneDocument.schema.contains(SceneDocument.format))
    }
}
