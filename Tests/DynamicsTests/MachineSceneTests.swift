// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Box2D's benchmark scenes with motors and compound items (`tumbler`, `compounds`) against Box2D v3's
/// `benchmarks.c`, written here in its metres with y up and converted (100 pt per metre, y down), and against
/// the closed forms of their masses and of the motor.
@Suite struct MachineSceneTests {
    /// `world`'s ids in creation order.
    func createdIDs(_ world: DynamicWorld) -> [ItemID] { world.itemIDs().sorted { $0.index < $1.index } }

    @Test("tumbler: Box2D's drum at (0, 10) m, its mass and inertia, and a 45 × 45 grid of 0.25 m boxes")
    func tumblerLayout() throws {
        let world = try Scene.tumbler.makeWorld()
        let ids = createdIDs(world)
        #expect(ids.count == 2_026)
        let drum = ids[0]
        #expect(world.pose(of: drum).center == CGPoint(x: 0, y: -1000))
        // Four walls of 1 × 20 m at density 50: 1 000 each; each wall's own inertia m(w² + h²)/12 plus m·d², d = 10 m.
        let wall = 50.0 * 100 * 2000 / 10_000
        #expect(abs(world.mass(of: drum) - 4 * wall) < 1e-6 * 4 * wall)
        let inertia = 4 * (wall * (100 * 100 + 2000 * 2000) / 12 + wall * 1000 * 1000)
        #expect(abs(world.inertia(of: drum) - inertia) < 1e-5 * inertia, "inertia \(world.inertia(of: drum)), expected \(inertia)")
        // CreateTumbler: y = −0.2·45 + 10 + 0.4·i, x = −0.2·45 + 0.4·j, row by row.
        var worst = 0.0
        for i in 0..<45 {
            for j in 0..<45 {
                let c = world.pose(of: ids[1 + 45 * i + j]).center
                let x = 100 * (-0.2 * 45 + 0.4 * Double(j)), y = -100 * (-0.2 * 45 + 10 + 0.4 * Double(i))
                worst = max(worst, hypot(c.x - x, c.y - y))
            }
        }
        #expect(worst < 1e-3, "a box is \(worst) pt from Box2D's place")
        #expect(abs(world.mass(of: ids[1]) - 25.0 * 25 / 10_000) < 1e-9)
    }

    @Test("tumbler: the motor turns the loaded drum at 25°/s about its pin, and every box stays inside it")
    func tumblerTurns() throws {
        let world = try Scene.tumbler.makeWorld(items: 400)
        let ids = createdIDs(world)
        try world.step(count: 180)
        let drum = ids[0], speed = -25 * Double.pi / 180  // Box2D's counterclockwise, mirrored
        #expect(abs(world.angularVelocity(of: drum) - speed) < 0.01 * abs(speed), "ω \(world.angularVelocity(of: drum))")
        let pose = world.pose(of: drum)
        #expect(hypot(pose.center.x, pose.center.y + 1000) < 0.5, "the drum left its pin: \(pose.center)")
        // From rest, the motor's 10¹⁰ N·pt reaches 25°/s within a few steps: the angle is the speed's over 3 s, less
        // at most a step's worth.
        #expect(abs(pose.angle - 3 * speed) < abs(speed) / 60 + 1e-3, "angle \(pose.angle)")
        // Inside: within the walls' inner faces (950 pt from the centre) in the drum's frame.
        let (c, s) = (cos(pose.angle), sin(pose.angle))
        for box in ids.dropFirst() {
            let p = world.pose(of: box).center, dx = p.x - pose.center.x, dy = p.y - pose.center.y
            let (u, v) = (c * dx + s * dy, -s * dx + c * dy)
            #expect(max(abs(u), abs(v)) < 950, "a box left the drum: \(p)")
        }
    }

    @Test("compounds: Box2D's 20 columns of two-triangle items above a pit of 281 anchored boxes")
    func compoundsLayout() throws {
        let world = try Scene.compounds.makeWorld()
        let ids = createdIDs(world)
        #expect(ids.count == 281 + 3_000)
        // CreateCompounds: column i, row j at (2·i − 19 ± 0.25, 2.25·j + 0.575 + 5) m, the sign alternating item by
        // item from +; each triangle has area 1 m², so mass 1, and both have their centroids 1 m above the origin.
        var worst = 0.0, side = 0.25
        for i in 0..<20 {
            for j in 0..<150 {
                let id = ids[281 + 150 * i + j], c = world.pose(of: id).center
                let x = 100 * (2 * Double(i) - 19 + side), y = -100 * (2.25 * Double(j) + 5.575) - 100
                side = -side
                worst = max(worst, hypot(c.x - x, c.y - y))
                #expect(abs(world.mass(of: id) - 2) < 1e-6)
            }
        }
        #expect(worst < 1e-3, "an item is \(worst) pt from Box2D's place")
    }

    @Test("compounds: every item falls into the pit and stays between its walls, on its floor")
    func compoundsLand() throws {
        let world = try Scene.compounds.makeWorld(items: 100)
        let ids = createdIDs(world)
        let pit = ids.prefix(281).map { world.pose(of: $0).center }
        try world.step(count: 180)
        #expect(ids.prefix(281).map { world.pose(of: $0).center } == pit, "the pit's anchored boxes moved")
        for id in ids.dropFirst(281) {
            let p = world.pose(of: id).center
            // The walls' inner faces at x = ±3 950 pt, the floor's top at y = −50 pt; an item reaches 100 pt from its centre.
            #expect(abs(p.x) < 3950 && p.y < -50 && p.y > -1500, "an item at \(p)")
        }
    }
}
