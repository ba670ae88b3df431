// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// `rain` against Box2D v3's `benchmarks.c` (CreateRain, StepRain, CreateGroup) and `human.c`, in its metres with
/// y up converted here (100 pt per metre, y down): the rows of boxes, the ragdolls' bones and pins, and the
/// timeline that makes a column of groups every 8 steps and makes the oldest again once the columns are full.
@Suite struct RainSceneTests {
    @Test("rain: five rows of 501 anchored 0.5 m boxes 45 m apart from x = −125 m, and no ragdoll before the first step")
    func rows() throws {
        let run = try Scene.rain.makeRun(items: 275)
        #expect(run.world.itemCount == 2505 && run.documentItemCount == 2505)
        for (k, name) in [(0, "ground0-0"), (500, "ground0-500"), (501 * 4 + 250, "ground4-250")] {
            #expect(run.itemNames[k] == name)
        }
        #expect(run.world.pose(of: run.itemIDs[0]).center == CGPoint(x: -12_500, y: 0))
        #expect(run.world.pose(of: run.itemIDs[501 * 4 + 500]).center == CGPoint(x: 12_500, y: -18_000))
    }

    @Test("rain: a ragdoll is Box2D's human: eleven bones at its heights, their masses, ten pins in an exclusion group")
    func ragdoll() throws {
        let run = try Scene.rain.makeRun(items: 275)
        try run.step()
        #expect(run.world.itemCount == 2505 + 5 * 5 * 11 && run.world.attachmentCount == 5 * 5 * 10)
        // Group (row 0, column 0) at (−125 + 6.25 · 0.5, 40) m; human i 0.5 m further right.
        let x0 = -12_187.5, y0 = -4000.0
        func centre(_ name: String) throws -> CGPoint {
            run.world.pose(of: run.itemIDs[try #require(run.itemNames.firstIndex(of: name))]).center
        }
        // Box2D's body heights plus each capsule's centre offset (m): hip 0.95, torso 1.2, head 1.475 + 0.0005,
        // upper leg 0.775, upper arm 1.225, lower arm 0.975 (one step of free fall since).
        let fall = try centre("row0-0/h0-hip").y - (y0 - 95)
        #expect(fall > 0 && fall < 1, "one step of free fall: \(fall) pt")
        for (bone, height) in [("hip", 0.95), ("torso", 1.2), ("head", 1.4755), ("upper-left-leg", 0.775),
                               ("upper-right-arm", 1.225), ("lower-left-arm", 0.975)] {
            let c = try centre("row0-0/h2-\(bone)")
            // The pins start outside some ranges (a lower arm's, as Box2D's do), so the bones shift a little.
            #expect(abs(c.x - (x0 + 100)) < 0.5 && abs(c.y - fall - (y0 - 100 * height)) < 0.5, "\(bone) at \(c)")
        }
        // Masses (density 1, kg = m²): a capsule of core length l and radius r has π r² + 2 r l.
        func capsule(_ l: Double, _ r: Double) -> Double { .pi * r * r + 2 * r * l }
        for (bone, mass) in [("hip", capsule(0.04, 0.095)), ("torso", capsule(0.27, 0.09)), ("head", capsule(0.077, 0.075)),
                             ("upper-left-arm", capsule(0.25, 0.035))] {
            let id = run.itemIDs[try #require(run.itemNames.firstIndex(of: "row0-0/h0-\(bone)"))]
            #expect(abs(run.world.mass(of: id) - mass) < 1e-4 * mass, "\(bone): \(run.world.mass(of: id)) kg, not \(mass)")
        }
        // Limbs of one ragdoll overlap at their pins and do not push apart: no contact among them.
        #expect(run.world.contactCount == 0, "\(run.world.contactCount) contacts before anything lands")
    }

    @Test("rain: every 8 steps a column per row; with the columns full, the oldest is made again where it first stood")
    func columns() throws {
        let run = try Scene.rain.makeRun(items: 550) // 2 columns
        for _ in 0..<17 { try run.step() }             // makes before steps 0, 8 and 16
        #expect(run.world.itemCount == 2505 + 2 * 5 * 5 * 11)
        #expect(run.itemIDs.count == 2505 + 3 * 5 * 5 * 11 && run.isRemoved.filter { $0 }.count == 5 * 5 * 11)
        // Instances row3-0 (made at steps 0 and 16) and row3-1 (step 8): the oldest went, and its name came back.
        let again = try #require(run.itemNames.lastIndex(of: "row3-0/h0-hip")), first = try #require(run.itemNames.firstIndex(of: "row3-0/h0-hip"))
        #expect(run.isRemoved[first] && !run.isRemoved[again])
        #expect(abs(run.world.pose(of: run.itemIDs[again]).center.x - -12_187.5) < 2, "column 0 made again at its place")
        let second = run.itemIDs[try #require(run.itemNames.lastIndex(of: "row3-1/h4-hip"))]
        #expect(abs(run.world.pose(of: second).center.x - (-12_187.5 + 625 + 200)) < 2, "column 1, human 4")
    }

    @Test("rain: the first ragdolls land on row 0's boxes and lie on them, their pins holding, within their ranges")
    func landing() throws {
        var configuration = DynamicsConfiguration()
        configuration.workerCount = 2
        let run = try Scene.rain.makeRun(configuration: configuration) // 40 columns: column 0 stays until step 320
        for _ in 0..<260 { try run.step() } // 40 m of fall takes 2.8 s
        let first = run.itemNames.indices.filter { run.itemNames[$0].hasPrefix("row0-0/") }
        #expect(!first.isEmpty)
        for i in first where !run.isRemoved[i] {
            let c = run.world.pose(of: run.itemIDs[i]).center
            #expect(c.y < -25 && c.y > -400, "\(run.itemNames[i]) at \(c): not lying on row 0")
        }
    }
}
