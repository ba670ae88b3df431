// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// The reference scenes against the layouts they copy. The oracles are the formulas of the benchmark scenes
/// (Sources/DynamicsScenes/DynamicsScenes.docc/BenchmarkScenes.md) and of Box2D v3's `benchmarks.c`, written here
/// in Box2D's metres with y up and converted (100 pt per metre, y down).
@Suite struct ReferenceSceneTests {
    /// `world`'s ids in creation order (dense order puts resting items last), for worlds nothing was removed from.
    func createdIDs(_ world: DynamicWorld) -> [ItemID] { world.itemIDs().sorted { $0.index < $1.index } }

    /// The centres of `world`'s items, in creation order.
    func centres(_ world: DynamicWorld) -> [CGPoint] { createdIDs(world).map { world.pose(of: $0).center } }

    func expectSame(_ found: [CGPoint], _ expected: [CGPoint], _ scene: String) {
        #expect(found.count == expected.count, "\(scene): \(found.count) items, expected \(expected.count)")
        let worst = zip(found, expected).map { hypot($0.x - $1.x, $0.y - $1.y) }.max() ?? 0
        #expect(worst < 1e-3, "\(scene): an item is \(worst) pt from Box2D's place")
    }

    @Test("many_pyramids has Box2D's 20 × 20 pyramids of base 10, 1.1 m apart")
    func manyPyramidsLayout() throws {
        // CreateManyPyramids: extent 0.5 m, base 10, 20 rows and columns, ground rows 11 m apart, 220 m wide.
        let extent = 0.5, base = 10, count = 20
        let groundDeltaY = 2 * extent * Double(base + 1), groundWidth = 2 * extent * Double(count * (base + 1))
        var expected: [CGPoint] = []
        for row in 0..<count {
            for column in 0..<count {
                let centerX = -0.5 * groundWidth + Double(column) * (2 * extent * Double(base) + 2 * extent) + 2 * extent
                let baseY = Double(row) * groundDeltaY
                for i in 0..<base {
                    for j in i..<base {
                        let x = Double(i + 1) * extent + 2 * Double(j - i) * extent + centerX - 0.5
                        let y = Double(2 * i + 1) * extent + baseY
                        expected.append(CGPoint(x: 100 * x, y: -100 * y))
                    }
                }
            }
        }
        let world = try Scene.manyPyramids.makeWorld()
        #expect(world.itemCount == 22_000)
        expectSame(centres(world), expected, "many_pyramids")
    }

    @Test("each row of many_pyramids stands on its own floor: every pyramid's top stays within 2 pt for 2 s")
    func manyPyramidsStand() throws {
        // 3 × 3 pyramids (495 boxes): rows of 3, so three floors. Without the upper floors the upper rows would
        // fall 1 100 pt onto the next one in well under 2 s.
        let world = try Scene.manyPyramids.makeWorld(items: 9 * 55)
        let ids = world.itemIDs()
        #expect(ids.count == 495)
        let tops = stride(from: 54, to: ids.count, by: 55).map { ids[$0] }
        let start = tops.map { world.pose(of: $0).center }
        try world.step(count: 120)
        for (top, from) in zip(tops, start) {
            let to = world.pose(of: top).center
            #expect(hypot(to.x - from.x, to.y - from.y) < 2, "a top box moved from \(from) to \(to)")
        }
    }

    @Test("smash: Box2D's 8 m box at x = −20 m and 40 m/s, into a 120 × 80 grid of 0.4 m boxes from x = 30 m")
    func smashLayout() throws {
        let world = try Scene.smash.makeWorld()
        let ids = createdIDs(world)
        #expect(ids.count == 9_601)
        // CreateSmash makes the box first and then the grid, column by column; here the grid comes first.
        var expected: [CGPoint] = []
        for i in 0..<120 {
            for j in 0..<80 { expected.append(CGPoint(x: 100 * (Double(i) * 0.4 + 30), y: -100 * (Double(j) - 40) * 0.4)) }
        }
        expectSame(Array(centres(world).prefix(9_600)), expected, "smash grid")
        let hammer = ids[9_600]
        #expect(world.pose(of: hammer).center == CGPoint(x: -2000, y: 0))
        #expect(world.velocity(of: hammer) == CGVector(dx: 4000, dy: 0))
        #expect(abs(world.mass(of: hammer) - 8 * 800 * 800 / 10_000) < 1e-3, "mass \(world.mass(of: hammer))")  // Units and semantics
    }

    @Test("smash: the box reaches the grid after (3 000 − 20 − (−2 000 + 400)) / 4 000 = 1.145 s, not before")
    func smashArrives() throws {
        // A smaller grid (24 × 16) with the same first column: the box's face meets it at 1.145 s (68.7 steps).
        let world = try Scene.smash.makeWorld(items: 385)
        let grid = Array(createdIDs(world).dropLast())
        #expect(grid.allSatisfy { world.isResting($0) } && world.awakeItemCount == 1, "the grid starts at rest")
        func moving() -> Int { grid.filter { world.velocity(of: $0) != CGVector(dx: 0, dy: 0) }.count }
        try world.step(count: 66)
        #expect(moving() == 0, "the grid moved before the box arrived")
        try world.step(count: 6)
        #expect(moving() > 0, "the box reached the grid by 1.2 s but moved nothing")
    }

    @Test("the default scene collides: its boxes land on its container's floor and touch each other")
    func defaultCollides() throws {
        let world = try Scene.default.makeWorld(items: 100)
        try world.step(count: 120)
        #expect(world.contactCount > 100, "\(world.contactCount) contacts")
        // The container's floor is at y = side + 200 = 1 400 pt; 100 pt boxes rest with centres above 1 350.
        let lowest = centres(world).map(\.y).max()!
        #expect(lowest > 1_340 && lowest < 1_351, "the lowest box's centre is at y = \(lowest)")
    }
}
