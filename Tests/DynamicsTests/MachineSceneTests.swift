// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Box2D's benchmark scenes with motors, kinematic items, compound items and rounded shapes (`tumbler`,
/// `compounds`, `washer`, `junkyard`, `spinner`) against Box2D v3's `benchmarks.c`, written here in its metres with y up and converted (100 pt per
/// metre, y down), and against the closed forms of their masses, the motor and the kinematic motions.
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

    @Test("washer: a kinematic drum of 40 pieces at (0, 10) m turning at 25°/s, and a 90 × 90 grid of 0.2 m squares")
    func washerLayout() throws {
        let world = try Scene.washer.makeWorld()
        let ids = createdIDs(world)
        #expect(ids.count == 8_101)
        let drum = ids[0]
        #expect(hypot(world.pose(of: drum).center.x, world.pose(of: drum).center.y + 1000) < 1e-3)
        // CreateWasher: y = −1.1·0.1·90 + 10 + 0.21·i, x = −9.9 + 0.21·j, row by row.
        var worst = 0.0
        for i in 0..<90 {
            for j in 0..<90 {
                let c = world.pose(of: ids[1 + 90 * i + j]).center
                worst = max(worst, hypot(c.x - 100 * (-9.9 + 0.21 * Double(j)), c.y + 100 * (-9.9 + 10 + 0.21 * Double(i))))
            }
        }
        #expect(worst < 1e-3, "a square is \(worst) pt from Box2D's place")
    }

    @Test("washer: the drum turns at its velocity alone, loaded, and every square stays inside its rim")
    func washerTurns() throws {
        let world = try Scene.washer.makeWorld(items: 400)
        let ids = createdIDs(world)
        let start = world.pose(of: ids[0])
        try world.step(count: 120)
        let pose = world.pose(of: ids[0]), speed = -25 * Double.pi / 180
        #expect(abs(pose.angle - start.angle - 2 * speed) < 1e-4, "angle \(pose.angle)")
        // 0.2 and 0.4 pt over 480 substeps at 1 000 pt from the origin, where a Float step is 6·10⁻⁵ pt.
        #expect(abs(pose.center.x - start.center.x - 0.2) < 0.05 && abs(pose.center.y - start.center.y - 0.4) < 0.05,
                "the drum moved by \(pose.center.x - start.center.x), \(pose.center.y - start.center.y)")
        #expect(abs(world.angularVelocity(of: ids[0]) - speed) < 1e-6)
        for square in ids.dropFirst() {
            let p = world.pose(of: square).center
            #expect(hypot(p.x - pose.center.x, p.y - pose.center.y) < 1600, "a square left the drum: \(p)")
        }
    }

    @Test("junkyard: Box2D's 200 columns of pentagons above a pit of 261 anchored boxes, and a kinematic pusher")
    func junkyardLayout() throws {
        let world = try Scene.junkyard.makeWorld()
        let ids = createdIDs(world)
        #expect(ids.count == 261 + 8_000 + 1)
        // CreateJunkyard: column i, row j at (1.5·(2i − 200)·0.25 ∓ 0.1, j + 15) m, the sign alternating from −;
        // the pentagon's points at 0.25 m and angles π(√5 − 1)·k, so its centroid is off its origin.
        let phi = Double.pi * (5.0.squareRoot() - 1)
        let corners = (0..<5).map { k in CGPoint(x: 25 * cos(phi * Double(k)), y: -25 * sin(phi * Double(k))) }
        guard case .polygon(let hull) = try CollisionShape.hull(of: corners) else { Issue.record("no hull"); return }
        #expect(hull.count == 5)
        var area = 0.0, cx = 0.0, cy = 0.0
        for k in hull.indices {
            let p = hull[k], q = hull[(k + 1) % hull.count], cross = p.x * q.y - q.x * p.y
            (area, cx, cy) = (area + cross, cx + (p.x + q.x) * cross, cy + (p.y + q.y) * cross)
        }
        let centroid = CGPoint(x: cx / (3 * area), y: cy / (3 * area))
        var worst = 0.0, side = -10.0
        for i in 0..<200 {
            for j in 0..<40 {
                let c = world.pose(of: ids[261 + 40 * i + j]).center
                let x = 37.5 * (2 * Double(i) - 200) + side + centroid.x, y = -100 * (Double(j) + 15) + centroid.y
                side = -side
                worst = max(worst, hypot(c.x - x, c.y - y))
            }
        }
        #expect(worst < 1e-3, "a pentagon is \(worst) pt from Box2D's place")
        #expect(abs(world.mass(of: ids[261]) - abs(area) / 2 / 10_000) < 1e-6, "a pentagon's mass is its area's")
        #expect(world.pose(of: ids[8_261]).center == CGPoint(x: 0, y: -400))
    }

    @Test("junkyard: the timeline drives the pusher along x = 6 000 pt · sin(0.2 t), and the pentagons stay in the pit")
    func junkyardPusher() throws {
        let run = try Scene.junkyard.makeRun(items: 400)
        let pusher = run.itemIDs.last!
        for n in 0..<180 {
            try run.step()
            let x = run.world.pose(of: pusher).center.x, target = 6000 * sin(0.2 * Double(n) / 60)
            if n % 30 == 0 { #expect(abs(x - target) < 0.05, "step \(n): the pusher is at \(x), not \(target)") }
        }
        #expect(run.world.pose(of: pusher).center.y == -400 && run.world.pose(of: pusher).angle == 0)
        for id in run.itemIDs.dropFirst(261).dropLast() {
            let p = run.world.pose(of: id).center
            #expect(abs(p.x) < 7950 && p.y < -50, "a pentagon left the pit: \(p)")
        }
    }

    @Test("spinner: Box2D's rounded bar at (0, 12) m and 6 076 items of three shapes at a 0.5 m pitch from (−23, 2) m")
    func spinnerLayout() throws {
        let world = try Scene.spinner.makeWorld()
        let ids = createdIDs(world)
        #expect(ids.count == 6_077)
        #expect(world.pose(of: ids[0]).center == CGPoint(x: 0, y: -1200))
        // b2MakeRoundedBox(0.4, 20, 0.2) at density 1: the 0.8 × 40 m core grown by 0.2 m.
        let bar = try ItemDescription.Shape.roundedRectangle(width: 120, height: 4040, cornerRadius: 20, density: 1)
        if case .compound(let m, _, _, _) = bar { #expect(abs(world.mass(of: ids[0]) - m) < 1e-3 * m) }
        // CreateSpinner: x from −23 m by 0.5 m, a new row 0.5 m up once x reaches 23 m (92 to a row).
        var worst = 0.0
        for k in 0..<6_076 {
            let c = world.pose(of: ids[1 + k]).center
            worst = max(worst, hypot(c.x - 100 * (-23 + 0.5 * Double(k % 92)), c.y + 100 * (2 + 0.5 * Double(k / 92))))
        }
        #expect(worst < 1e-3, "an item is \(worst) pt from Box2D's place")
        // Capsule (0.5 m segment, radius 0.25 m), circle (radius 0.35 m), square (0.7 m), density 0.25.
        let capsule = try ItemDescription.Shape.capsule(width: 100, height: 50, density: 0.25)
        if case .compound(let m, _, _, _) = capsule { #expect(abs(world.mass(of: ids[1]) - m) < 1e-6) }
        #expect(abs(world.mass(of: ids[2]) - 0.25 * .pi * 35 * 35 / 10_000) < 1e-6)
        #expect(abs(world.mass(of: ids[3]) - 0.25 * 70 * 70 / 10_000) < 1e-6)
    }

    @Test("spinner: the unlimited motor turns the loaded bar at 5 rad/s, and the pieces stay in the ring but a few")
    func spinnerTurns() throws {
        let world = try Scene.spinner.makeWorld(items: 600)
        let ids = createdIDs(world)
        try world.step(count: 120)
        #expect(abs(world.angularVelocity(of: ids[0]) + 5) < 1e-3, "ω \(world.angularVelocity(of: ids[0]))")
        #expect(hypot(world.pose(of: ids[0]).center.x, world.pose(of: ids[0]).center.y + 1200) < 0.5)
        // The bar's ends pass 20 pt beyond the ring at its bottom (as Box2D's do): a piece caught there can be
        // pushed through it. No more than 1 % are.
        let outside = ids.dropFirst().filter { id in
            let p = world.pose(of: id).center
            return hypot(p.x, p.y + 3200) > 4000
        }
        #expect(outside.count <= 6, "\(outside.count) of 600 pieces left the ring")
    }
}
