// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Items put to rest (`DynamicWorld.putToRest`, `resting` in scene files), as Box2D creates bodies asleep:
/// the step skips them until the rules of the Units and semantics article (§Rest) wake them.
@Suite struct PutToRestTests {
    static func run(_ json: String) throws -> SceneRun { try SceneRun(try SceneDocument.parse(Data(json.utf8))) }

    static func steps(_ run: SceneRun, _ count: Int) throws { for _ in 0..<count { try run.step() } }

    /// A 40 pt box at (x, y), at rest when `resting`.
    static func box(_ id: String, _ x: Double, _ y: Double, resting: Bool) -> String {
        #"{"id": "\#(id)", "shape": {"type": "rectangle", "width": 40, "height": 40}, "center": [\#(x), \#(y)], "resting": \#(resting)}"#
    }

    @Test("a box put to rest in mid-air stays there under gravity while an awake one falls 500 pt in 1 s")
    func restsInMidAir() throws {
        let run = try Self.run("""
            {"format": "dynamics-scene/1", "configuration": {"workers": 1, "rest": false},
             "items": [\(Self.box("held", 0, 0, resting: true)), \(Self.box("free", 200, 0, resting: false))],
             "behaviors": [{"type": "gravity"}]}
            """)
        #expect(run.world.isResting(run.itemIDs[0]) && !run.world.isResting(run.itemIDs[1]))
        try Self.steps(run, 60)
        #expect(run.world.pose(of: run.itemIDs[0]).center == CGPoint(x: 0, y: 0))
        // Semi-implicit Euler in 240 substeps of h = 1/240 s: y = g·h²·(1 + … + 240) = 1000 · 28 920 / 57 600 pt.
        let y = run.world.pose(of: run.itemIDs[1]).center.y
        #expect(abs(y - 1000.0 * 28_920 / 57_600) < 0.05, "fell to \(y)")
    }

    @Test("a ball thrown at a resting wall wakes the boxes it strikes, and they pass the blow on")
    func wallWakes() throws {
        // A 4 × 4 wall of 40 pt boxes touching each other, at rest; a ball at 2 000 pt/s from the left.
        let run = try Self.run("""
            {"format": "dynamics-scene/1", "configuration": {"workers": 1, "rest": false},
             "items": [{"id": "ball", "shape": {"type": "ellipse", "width": 60, "height": 60}, "center": [-400, 60],
                        "velocity": [2000, 0], "material": {"density": 4}}],
             "generators": [{"type": "grid", "id": "wall", "count": 16, "columns": 4, "origin": [0, 0],
                             "spacing": [40, 40], "shape": {"type": "rectangle", "width": 40, "height": 40},
                             "resting": true}],
             "behaviors": [{"type": "collision"}]}
            """)
        let wall = Array(run.itemIDs.dropFirst())
        #expect(wall.allSatisfy { run.world.isResting($0) } && run.world.awakeItemCount == 1)
        // The ball's edge reaches the wall's (x = −20) after (−20 − 30 + 400) / 2000 = 0.175 s: 10.5 steps.
        try Self.steps(run, 10)
        #expect(wall.allSatisfy { run.world.isResting($0) && run.world.pose(of: $0).center.x.truncatingRemainder(dividingBy: 40) == 0 },
                "the wall moved before the ball arrived")
        try Self.steps(run, 50)
        let woken = wall.filter { !run.world.isResting($0) }
        #expect(woken.count >= 8, "\(woken.count) of 16 boxes woke")
        let momentum = wall.map { run.world.mass(of: $0) * run.world.velocity(of: $0).dx }.reduce(0, +)
        #expect(momentum > 0, "the wall took none of the ball's momentum")
    }

    @Test("putToRest keeps velocities for when the items wake, and a stale id throws and changes nothing")
    func apiKeepsVelocity() throws {
        let run = try Self.run("""
            {"format": "dynamics-scene/1", "configuration": {"workers": 1},
             "items": [\(Self.box("a", 0, 0, resting: false)), \(Self.box("b", 100, 0, resting: false))]}
            """)
        let (a, b) = (run.itemIDs[0], run.itemIDs[1])
        try run.world.setVelocities([CGVector(dx: 120, dy: 0)], for: [a])
        let stale = ItemID(index: 99, generation: 1)
        #expect(throws: DynamicsError.staleID(stale)) { try run.world.putToRest([a, stale]) }
        #expect(run.world.awakeItemCount == 2, "a failed call put an item to rest")
        try run.world.putToRest([a])
        #expect(run.world.isResting(a) && !run.world.isResting(b))
        try run.world.step(count: 30)
        #expect(run.world.pose(of: a).center == CGPoint(x: 0, y: 0))
        run.world.wake([a])
        try run.world.step(count: 60)
        #expect(abs(run.world.pose(of: a).center.x - 120) < 1e-3, "moved to \(run.world.pose(of: a).center.x)")
    }

    @Test("an item put to rest takes its island with it: a box resting on another puts both to rest")
    func islandRests() throws {
        let run = try Self.run("""
            {"format": "dynamics-scene/1", "bounds": {"x": -200, "y": -200, "width": 400, "height": 400},
             "configuration": {"workers": 1},
             "items": [\(Self.box("low", 0, 180, resting: false)), \(Self.box("high", 0, 140, resting: false)),
                       \(Self.box("apart", 150, 180, resting: false))],
             "behaviors": [{"type": "gravity"}, {"type": "collision", "boundsAsBoundary": true}]}
            """)
        try Self.steps(run, 5) // the boxes touch: one island of two, and one alone
        #expect(run.world.awakeItemCount == 3)
        try run.world.putToRest([run.itemIDs[1]])
        #expect(run.world.isResting(run.itemIDs[0]) && run.world.isResting(run.itemIDs[1]))
        #expect(!run.world.isResting(run.itemIDs[2]))
    }

    @Test("resting is written back by the scene encoder and read again, for items and generators")
    func roundTrip() throws {
        var document = SceneDocument()
        var item = SceneItem(id: "a", shape: .rectangle(width: 10, height: 10), center: .zero)
        item.resting = true
        document.items = [item]
        var generator = SceneGenerator(id: "g", count: 2, layout: .grid(origin: .zero, columns: 2, spacing: CGVector(dx: 20, dy: 20)),
                                       shape: .rectangle(width: 10, height: 10))
        generator.resting = true
        document.generators = [generator]
        let again = try SceneDocument.parse(Data(document.json.utf8))
        #expect(again.items.first?.resting == true && again.generators.first?.resting == true)
        let run = try SceneRun(again)
        #expect(run.world.awakeItemCount == 0 && run.world.restingItemCount == 3)
    }

    @Test("items of an animated noise field stay awake when put to rest; a still noise field's rest")
    func animatedNoiseStaysAwake() throws {
        for speed in [0.0, 1.0] {
            let world = try DynamicWorld()
            let ids = try world.createItems(ItemDescription(), at: [CGPoint(x: 0, y: 0), CGPoint(x: 300, y: 0)])
            var noise = FieldDescription(kind: .noise)
            noise.strength = 50
            noise.animationSpeed = speed
            _ = try world.addField(noise, for: [ids[0]])
            try world.putToRest(ids)
            // The animated field's member is awake at once; the other item, and a still field's member, rest.
            #expect(world.isResting(ids[0]) == (speed == 0), "animation speed \(speed)")
            #expect(world.isResting(ids[1]))
            let start = world.pose(of: ids[0]).center
            try world.step(count: 30)
            #expect((world.pose(of: ids[0]).center != start) == (speed > 0), "animation speed \(speed)")
        }
    }
}
