// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Items made and removed by a scene's timeline (beyond UIKit): templates, `make` events with repeat shift and
/// cycle, `remove` of an instance, and exclusion groups. Oracles: free fall of semi-implicit Euler (a made item
/// falls as far as a listed one in as many steps), the names, counts and origins the documented rules give.
@Suite struct SceneTemplateTests {
    /// A scene with a floor segment at y = 1000 (collision behaviour for the tag 'pair'), gravity on every item, a
    /// listed probe square, and a template 'pair' of two 40 pt squares 100 pt apart joined by a rod; `timeline` given.
    static func scene(_ timeline: String, workers: Int = 1) -> String {
        """
        {"format": "dynamics-scene/1", "configuration": {"workers": \(workers)},
         "items": [{"id": "probe", "shape": {"type": "rectangle", "width": 40, "height": 40}, "center": [-500, 0]}],
         "templates": [{"id": "pair", "tags": ["made"],
                        "items": [{"id": "a", "shape": {"type": "rectangle", "width": 40, "height": 40}, "center": [0, 0]},
                                  {"id": "b", "shape": {"type": "rectangle", "width": 40, "height": 40}, "center": [100, 0]}],
                        "attachments": [{"item": "a", "to": "b", "anchor": [100, 0], "itemAnchor": [0, 0]}]}],
         "behaviors": [{"type": "gravity"},
                       {"type": "collision", "tags": ["pair"], "boundaries": [{"id": "floor", "type": "segment", "from": [-2000, 1000], "to": [2000, 1000]}]}],
         "timeline": \(timeline)}
        """
    }

    static func run(_ json: String, steps: Int, configuration: DynamicsConfiguration? = nil) throws -> SceneRun {
        let run = try SceneRun(try SceneDocument.parse(Data(json.utf8)), configuration: configuration)
        for _ in 0..<steps { try run.step() }
        return run
    }

    @Test("a made item falls as far as the listed probe in as many steps, and its rod holds it to its partner")
    func madeItemFalls() throws {
        let run = try Self.run(Self.scene(#"[{"time": 0.5, "make": {"template": "pair", "instance": "p", "origin": [0, 100]}}]"#),
                               steps: 60)
        // Made before step 30, it has had 30 steps; the probe fell for 60. The probe's fall over its first 30 steps:
        let probe = try Self.run(Self.scene("[]"), steps: 30)
        let probeFall = probe.world.pose(of: probe.itemIDs[0]).center.y
        let i = try #require(run.itemNames.firstIndex(of: "p/a")), j = try #require(run.itemNames.firstIndex(of: "p/b"))
        let a = run.world.pose(of: run.itemIDs[i]).center, b = run.world.pose(of: run.itemIDs[j]).center
        #expect(abs(a.y - 100 - probeFall) < 1e-3, "fell \(a.y - 100), the probe \(probeFall)")
        #expect(abs(b.x - a.x - 100) < 1e-2 && abs(a.x) < 1e-3, "a at \(a), b at \(b)")
        #expect(run.world.itemCount == 3 && run.world.attachmentCount == 1)
        // The semi-implicit Euler law over 120 substeps of 1/240 s at 1000 pt/s²: g·h²·n(n+1)/2.
        let h = 1.0 / 240, n = 120.0
        #expect(abs(probeFall - 1000 * h * h * n * (n + 1) / 2) < 1e-2, "probe fell \(probeFall)")
    }

    @Test("a repeating make with shift and cycle names instances pair-j, j = k mod cycle, and makes each again in place of the last")
    func repeatShiftCycle() throws {
        let timeline = #"[{"time": 0, "repeat": {"every": 0.25, "count": 5, "shift": [300, 0], "cycle": 2},"# +
            #" "make": {"template": "pair", "instance": "row", "origin": [0, 0]}}]"#
        let run = try Self.run(Self.scene(timeline), steps: 61)  // makes at steps 0, 15, 30, 45, 60
        #expect(run.world.itemCount == 1 + 2 * 2, "two live instances of two items, and the probe")
        #expect(run.world.attachmentCount == 2)
        #expect(run.itemIDs.count == 1 + 5 * 2 && run.isRemoved.filter { $0 }.count == 6 && run.documentItemCount == 1)
        let live = run.itemNames.indices.filter { !run.isRemoved[$0] }.map { run.itemNames[$0] }
        #expect(live == ["probe", "row-1/a", "row-1/b", "row-0/a", "row-0/b"], "\(live)")
        // row-0 was last made at step 60 at the origin, row-1 at step 45, 300 pt to the right.
        let row0 = run.world.pose(of: run.itemIDs[run.itemNames.lastIndex(of: "row-0/a")!]).center
        let row1 = run.world.pose(of: run.itemIDs[run.itemNames.lastIndex(of: "row-1/a")!]).center
        #expect(abs(row0.x) < 1e-3 && row0.y > 0 && row0.y < 1, "row-0/a at \(row0)")
        #expect(abs(row1.x - 300) < 1e-3 && row1.y > row0.y, "row-1/a at \(row1)")
        // Behaviours target made items by the template's id, its tags and the instance's name.
        #expect(run.indices(of: SceneTargets(tags: ["made"])).count == 4)
        #expect(run.indices(of: SceneTargets(tags: ["row-1"])).count == 2)
    }

    @Test("remove names an instance: its items and attachment go; a made item lands on the floor its collision behaviour holds")
    func removeAndCollide() throws {
        let timeline = #"[{"time": 0, "make": {"template": "pair", "instance": "one", "origin": [0, 900]}},"# +
            #" {"time": 0, "make": {"template": "pair", "instance": "two", "origin": [500, 900]}},"# +
            #" {"time": 1, "remove": "one"}]"#
        let early = try Self.run(Self.scene(timeline), steps: 59)
        #expect(early.world.itemCount == 5 && early.world.attachmentCount == 2)
        let run = try Self.run(Self.scene(timeline), steps: 120)
        #expect(run.world.itemCount == 3 && run.world.attachmentCount == 1)
        let a = run.world.pose(of: run.itemIDs[try #require(run.itemNames.firstIndex(of: "two/a"))]).center
        #expect(abs(a.y - 980) < 1, "two/a rests on the floor at y = 1000 with its centre 20 pt above: \(a)")
        #expect(run.world.pose(of: run.itemIDs[0]).center.y > 1500, "the probe, held by no collision behaviour, fell through")
    }

    @Test("made and removed items step to the same state for 1, 2 and 3 workers")
    func workers() throws {
        let timeline = #"[{"time": 0, "repeat": {"every": 0.1, "shift": [0, -60], "cycle": 6},"# +
            #" "make": {"template": "pair", "instance": "p", "origin": [0, 700]}}]"#
        let hashes = try [1, 2, 3].map { w -> UInt64 in
            var c = try SceneDocument.parse(Data(Self.scene(timeline).utf8)).configuration.dynamics
            c.workerCount = w
            return try Self.run(Self.scene(timeline), steps: 150, configuration: c).world.stateHash()
        }
        #expect(Set(hashes).count == 1, "\(hashes.map { String($0, radix: 16) })")
    }

    @Test("items of one exclusion group overlap undisturbed; of different groups they are pushed apart")
    func exclusionGroups() throws {
        func scene(_ g1: Int, _ g2: Int) -> String {
            """
            {"format": "dynamics-scene/1", "configuration": {"workers": 1},
             "items": [{"id": "a", "shape": {"type": "rectangle", "width": 40, "height": 40}, "center": [0, 0], "exclusionGroup": \(g1)},
                       {"id": "b", "shape": {"type": "rectangle", "width": 40, "height": 40}, "center": [20, 0], "exclusionGroup": \(g2)}],
             "behaviors": [{"type": "collision"}]}
            """
        }
        let same = try Self.run(scene(3, 3), steps: 30), different = try Self.run(scene(3, 4), steps: 30)
        func gap(_ r: SceneRun) -> CGFloat { r.world.pose(of: r.itemIDs[1]).center.x - r.world.pose(of: r.itemIDs[0]).center.x }
        #expect(gap(same) == 20, "same group: \(gap(same))")
        #expect(gap(different) > 30, "different groups: \(gap(different))")
    }

    @Test("templates, make, repeat shift and cycle, and exclusion groups read back from the file they write")
    func readsBack() throws {
        var json = Self.scene(#"[{"time": 0.5, "repeat": {"every": 1, "count": 4, "shift": [10, -5], "cycle": 3},"# +
                              #" "make": {"template": "pair", "instance": "p", "origin": [1, 2]}}, {"time": 2, "remove": "p-1"}]"#)
        json = json.replacingOccurrences(of: #""center": [-500, 0]}"#, with: #""center": [-500, 0], "exclusionGroup": -7}"#)
        let document = try SceneDocument.parse(Data(json.utf8))
        #expect(document.items[0].exclusionGroup == -7 && document.templates[0].attachments.count == 1)
        #expect(document.timeline[0].repeatShift == CGVector(dx: 10, dy: -5) && document.timeline[0].repeatCycle == 3)
        #expect(SceneDocument.read(Data(document.json.utf8), yaml: false).0 == document)
    }

    @Test("a template's generators make their items with each instance, named INSTANCE/ID-N, relative to its origin")
    func templateGenerators() throws {
        let json = """
            {"format": "dynamics-scene/1", "configuration": {"workers": 1},
             "items": [{"id": "probe", "shape": {"type": "rectangle", "width": 40, "height": 40}, "center": [-500, 0]}],
             "templates": [{"id": "crate", "generators": [
                {"type": "grid", "id": "box", "count": 6, "columns": 3, "origin": [0, 0], "spacing": [50, 60],
                 "shape": {"type": "rectangle", "width": 40, "height": 40}, "tags": ["small"]},
                {"type": "random", "id": "ball", "count": 4, "rect": {"x": 200, "y": 0, "width": 300, "height": 300},
                 "minSize": [10, 10], "maxSize": [20, 20], "shape": {"type": "circle", "radius": 1}}],
                "attachments": [{"item": "box-0", "to": "box-1", "anchor": [25, 0], "kind": "pin"}]}],
             "timeline": [{"time": 0, "make": {"template": "crate", "instance": "left", "origin": [1000, 500]}},
                          {"time": 0, "make": {"template": "crate", "instance": "right", "origin": [3000, 500]}}]}
            """
        let document = try SceneDocument.parse(Data(json.utf8))
        #expect(SceneDocument.read(Data(document.json.utf8), yaml: false).0 == document, "generators read back")
        let run = try SceneRun(document)
        try run.step()
        #expect(run.world.itemCount == 1 + 2 * 10 && run.world.attachmentCount == 2)
        for (k, expected) in [(0, CGPoint(x: 1000, y: 500)), (4, CGPoint(x: 1050, y: 560)), (5, CGPoint(x: 1100, y: 560))] {
            let c = run.world.pose(of: run.itemIDs[try #require(run.itemNames.firstIndex(of: "left/box-\(k)"))]).center
            #expect(c == expected, "left/box-\(k) at \(c)")
        }
        // Both instances have the same random layout, 2 000 pt apart (as Float positions hold it).
        for k in 0..<4 {
            let a = run.world.pose(of: run.itemIDs[try #require(run.itemNames.firstIndex(of: "left/ball-\(k)"))]).center
            let b = run.world.pose(of: run.itemIDs[try #require(run.itemNames.firstIndex(of: "right/ball-\(k)"))]).center
            #expect(abs(b.x - a.x - 2000) < 1e-3 && b.y == a.y && a.x >= 1200 && a.x <= 1500, "ball \(k): \(a), \(b)")
        }
        #expect(run.indices(of: SceneTargets(tags: ["small"])).count == 12 && run.indices(of: SceneTargets(tags: ["ball"])).count == 8)
        var small = SceneLimits()
        small.items = 9
        #expect(SceneDocument.read(Data(json.utf8), yaml: false, limits: small).1.contains {
            $0.path == "/templates/0/generators" && $0.message.contains("10 items, more than the limit of 9")
        })
        let empty = json.replacingOccurrences(of: #"{"id": "crate", "generators""#, with: #"{"id": "crate", "gens""#)
        #expect(SceneDocument.read(Data(empty.utf8), yaml: false).1.contains { $0.message.contains("needs 'items' or 'generators'") })
    }

    static let malformed: [(String, String, String)] = [
        (#"[{"time": 0, "make": {"template": "piar", "instance": "x"}}]"#, "/timeline/0/make/template",
         "no template has the id 'piar' (did you mean 'pair'?)"),
        (#"[{"time": 0, "make": {"template": "pair", "instance": "x/y"}}]"#, "/timeline/0/make/instance", "without '/'"),
        (#"[{"time": 0, "repeat": {"every": 1, "shift": [1, 0]}, "remove": "pair"}]"#, "/timeline/0/repeat/shift",
         "applies to a repeating 'make' only"),
        (#"[{"time": 0, "remove": "q"}]"#, "/timeline/0/remove", "no behaviour has the id 'q'"),
    ]

    @Test("a bad make, shift or remove reports its path", arguments: malformed.indices)
    func malformedEvents(_ k: Int) {
        let (timeline, path, message) = Self.malformed[k]
        let problems = SceneDocument.read(Data(Self.scene(timeline).utf8), yaml: false).1
        #expect(problems.contains { $0.path == path && $0.message.contains(message) }, "\(problems)")
    }

    @Test("a template attachment naming an item the template lacks is an error at its path")
    func badTemplateAttachment() {
        let json = Self.scene("[]").replacingOccurrences(of: #"{"item": "a", "to": "b""#, with: #"{"item": "a", "to": "c""#)
        let problems = SceneDocument.read(Data(json.utf8), yaml: false).1
        #expect(problems.contains { $0.path == "/templates/0/attachments/0/to" && $0.message.contains("no item with the id 'c'") },
                "\(problems)")
    }
}
