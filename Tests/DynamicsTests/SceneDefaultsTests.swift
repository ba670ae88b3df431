// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Scene files take UIKit's defaults where UIKit has one, place random items apart, and warn about items
/// the bounds never hold.
@Suite struct SceneDefaultsTests {
    static func run(_ yaml: String, seconds: Double) throws -> SceneRun {
        let run = try SceneRun(try SceneDocument.parse(Data(yaml.utf8), yaml: true))
        for _ in 0..<Int(seconds * 60) { try run.step() }
        return run
    }

    static func center(_ run: SceneRun, _ name: String) throws -> CGPoint {
        run.world.pose(of: run.itemIDs[try #require(run.itemNames.firstIndex(of: name))]).center
    }

    @Test("a rod, rope or spring without itemAnchor holds the item's centre, as UIKit's init(item:attachedToAnchor:)",
          arguments: ["{kind: rod}", "{kind: rod, length: 200}", "{kind: rope, length: 200}", "{kind: rod, frequency: 20, damping: 1}"])
    func rodHoldsTheCentre(_ kind: String) throws {
        let run = try Self.run("""
            format: dynamics-scene/1
            items:
              - {id: bob, shape: {type: circle, radius: 10}, center: [1000, 700]}
            behaviors:
              - {type: gravity}
              - {type: attachment, item: bob, anchor: [1000, 500], \(kind.dropFirst().dropLast())}
            """, seconds: 3)
        // Hanging still 200 pt below the anchor (the stiff spring sags g/ω² = 1000 / (2π·20)² ≈ 0.06 pt more);
        // with the anchor on the item as well, it hung 400 pt below.
        let c = try Self.center(run, "bob")
        #expect(abs(c.x - 1000) < 0.5 && abs(c.y - 700) < 1, "\(kind): the bob hangs at \(c)")
    }

    @Test("a chain of nine balls under gravity pointing up, dragged down from the ceiling by its head, hangs above the finger")
    func chainHangsUp() throws {
        // UIKit's nine-ball chain (balls 25 pt apart on rods holding their centres) with gravity (0, -1): it rises
        // to the ceiling; at 1 s a drag attachment takes the head, 30 pt below it, and moves to (160, 430)
        // over a second, then holds it there.
        var items = "", rods = "", moves = ""
        for k in 0..<9 {
            items += "  - {id: ball-\(k), shape: {type: circle, radius: 10}, center: [\(60 + 25 * k), 100], material: {friction: 0.3, resistance: 1, angularResistance: 1}}\n"
        }
        for k in 1..<9 { rods += "  - {type: attachment, item: ball-\(k), to: ball-\(k - 1), anchor: [\(60 + 25 * (k - 1)), 100]}\n" }
        for i in 1...60 {
            let t = 1 + Double(i) / 60
            moves += "  - {time: \(t), set: {behavior: drag, property: anchorPoint, value: [\(60 + 100 * Double(i) / 60), \(40 + 390 * Double(i) / 60)]}}\n"
        }
        let run = try Self.run("""
            format: dynamics-scene/1
            bounds: {x: 0, y: 0, width: 320, height: 568}
            items:
            \(items)behaviors:
              - {type: gravity, direction: [0, -1]}
              - {type: collision, boundsAsBoundary: true}
            \(rods)timeline:
              - {time: 1, add: {type: attachment, id: drag, item: ball-0, anchor: [60, 40]}}
            \(moves)
            """, seconds: 6)
        let ys = try (0..<9).map { try Self.center(run, "ball-\($0)").y }
        // Gravity pulls up: the head hangs 30 pt above the finger; every ball is above the one before it, the
        // tail far above. (Resistance settles the swing the drag starts: without it the chain, which keeps its
        // energy, still whips about at 6 s and a snapshot may catch it folded.)
        #expect(abs(ys[0] - 400) < 10, "the head is at y = \(ys[0])")
        #expect(zip(ys, ys.dropFirst()).allSatisfy { $1 < $0 - 10 }, "the chain folds: \(ys)")
        #expect(ys[8] < ys[0] - 150, "the tail is at y = \(ys[8]), the head at \(ys[0])")
    }

    @Test("a pin keeps one shared point: the item turns about the anchor")
    func pinSharesThePoint() throws {
        let run = try Self.run("""
            format: dynamics-scene/1
            items:
              - {id: bar, shape: {type: rectangle, width: 200, height: 20}, center: [1100, 500]}
            behaviors:
              - {type: gravity}
              - {type: attachment, kind: pin, item: bar, anchor: [1000, 500]}
            """, seconds: 0.5)
        // The bar's left end stays at the pin while it swings down: its centre stays 100 pt from the pin.
        let c = try Self.center(run, "bar")
        #expect(abs(hypot(c.x - 1000, c.y - 500) - 100) < 0.5 && c.y > 550, "the bar's centre is at \(c)")
    }

    @Test("'items' on an attachment is refused with a did-you-mean for 'item'")
    func itemsOnAttachment() {
        let problems = SceneDocument.read(Data("""
            {"format": "dynamics-scene/1", "items": [{"id": "bob", "shape": {"type": "circle", "radius": 10}, "center": [0, 0]}],
             "behaviors": [{"type": "attachment", "kind": "rod", "items": ["bob"], "anchor": [0, -100]}]}
            """.utf8), yaml: false).1
        #expect(problems.contains { $0.path == "/behaviors/0/items" && $0.message.contains("did you mean 'item'?") }, "\(problems)")
    }

    static func randomScene(count: Int, width: Int, items: String = "") -> String {
        """
        format: dynamics-scene/1
        configuration: {seed: 4}
        items: [\(items)]
        generators:
          - {type: random, id: r, count: \(count), rect: {x: 0, y: 0, width: \(width), height: 300}, minSize: [10, 10],
             maxSize: [30, 20], shape: {type: rectangle, width: 1, height: 1}}
          - {type: random, id: b, count: 50, rect: {x: 0, y: 0, width: \(width), height: 300}, minSize: [10, 10],
             maxSize: [20, 20], shape: {type: circle, radius: 1}, angle: 0.3}
        """
    }

    @Test("a random generator places its items apart from each other, earlier generators and listed items")
    func randomItemsApart() throws {
        let document = try SceneDocument.parse(Data(Self.randomScene(count: 200, width: 500,
            items: "{id: big, shape: {type: rectangle, width: 200, height: 100}, center: [250, 150]}").utf8), yaml: true)
        let run = try SceneRun(document)
        #expect(run.itemIDs.count == 251)
        // Every shape's bounding box, from the world's positions and the shapes' sizes.
        let generated = try document.generatedItems()
        func box(_ shape: SceneShape, _ c: CGPoint, _ angle: CGFloat) -> CGRect {
            // An ellipse's outline is a 16-gon inside it: 1.3 % more on each side holds the curve.
            let (co, si, k): (CGFloat, CGFloat, CGFloat) = (cos(angle), sin(angle), 1.013)
            let corners: [CGPoint] = shape.outlines.flatMap { $0 }
            var xs: [CGFloat] = [], ys: [CGFloat] = []
            for p in corners {
                xs.append(c.x + k * (co * p.x - si * p.y))
                ys.append(c.y + k * (si * p.x + co * p.y))
            }
            return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        }
        var boxes = [box(document.items[0].shape, document.items[0].center, 0)]
        for (g, placements) in zip(document.generators, generated) {
            for p in placements { boxes.append(box(p.shape, p.center, g.angle)) }
        }
        var overlapping = 0
        for i in boxes.indices {
            for j in boxes.indices where j > i && boxes[i].intersection(boxes[j]).width > 1e-9 && boxes[i].intersection(boxes[j]).height > 1e-9 {
                overlapping += 1
            }
        }
        #expect(overlapping == 0)
        // No contact at the first step: nothing moves without gravity.
        try run.step()
        #expect(run.world.kineticEnergy == 0)
    }

    @Test("a rectangle too small for a random fill is an error naming the generator")
    func fillTooDense() {
        let problems = SceneDocument.read(Data(Self.randomScene(count: 2000, width: 300).utf8), yaml: true).1
        #expect(problems.contains { $0.path == "/generators/0" && $0.message.contains("cannot place item") && $0.severity == .error },
                "\(problems)")
    }

    @Test("without minSize and maxSize a random generator's items keep the shape's size")
    func randomOwnSize() throws {
        let document = try SceneDocument.parse(Data("""
            format: dynamics-scene/1
            generators:
              - {type: random, id: r, count: 5, rect: {x: 0, y: 0, width: 500, height: 500}, shape: {type: circle, radius: 10}}
            """.utf8), yaml: true)
        let run = try SceneRun(document)
        // A circle of radius 10 at density 1: π · 100 / 10 000.
        for id in run.itemIDs { #expect(abs(run.world.mass(of: id) - .pi * 100 / 10_000) < 1e-6) }
    }

    @Test("an item wholly outside the reference bounds it collides with is warned about, as an overlapping one is")
    func outsideBounds() {
        let problems = SceneDocument.read(Data("""
            format: dynamics-scene/1
            bounds: {x: 0, y: 0, width: 400, height: 600}
            items:
              - {id: inside, shape: {type: circle, radius: 10}, center: [200, 300]}
              - {id: away, shape: {type: circle, radius: 10}, center: [900, 300]}
            behaviors:
              - {type: collision, boundsAsBoundary: true}
            """.utf8), yaml: true).1
        #expect(problems.map(\.path) == ["/items/1"], "\(problems)")
        #expect(problems.first?.message.contains("item 'away' lies outside the reference bounds") == true)
        #expect(problems.first?.severity == .warning)
    }
}
