// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// ``DynamicsConfiguration/adaptiveSubsteps``: a step takes twice or four times the configured substeps
/// while a rigid chain turns fast, and a change of the substep length carries the motion over unchanged.
@Suite struct AdaptiveSubstepsTests {
    @Test("a whipping chain takes up to four times the substeps and keeps its energy; at a fixed count it loses it")
    func whip() throws {
        let adaptive = try JointEnergyTests.swing(.pinChain8, degrees: 170)
        #expect(Set(adaptive.substeps).isSubset(of: [4, 8, 16]))
        #expect(adaptive.substeps.contains(16), "the whip never took 16 substeps")
        #expect(abs(adaptive.drift) <= 0.01, "drifted by \(adaptive.drift * 100) %")
        // The same swing at a fixed count: what the adaptation keeps (at least 5 % of the swing's energy).
        var fixed = DynamicsConfiguration()
        fixed.adaptiveSubsteps = false
        let plain = try JointEnergyTests.swing(.pinChain8, degrees: 170, configuration: fixed)
        #expect(plain.substeps.allSatisfy { $0 == 4 })
        #expect(plain.drift < -0.05, "at 4 substeps the whip lost only \(-plain.drift * 100) %")
    }

    @Test("once the chain turns slowly, steps go back to the configured substeps within about a second per level")
    func calms() throws {
        let world = try DynamicWorld()
        let links = try JointEnergyTests.build(.pinChain8, angle: 170 * .pi / 180, in: world)
        try world.setGravity(CGVector(dx: 0, dy: JointEnergyTests.gravity), for: links)
        var counts: [Int] = []
        for _ in 0..<120 {
            try world.step(count: 1)
            counts.append(world.lastStepProfile.substeps)
        }
        #expect(counts.max()! > 4, "the whip did not raise the substeps")
        // Heavy resistance stops the swing; each level then lasts 1 s of slow turning.
        try world.setResistance(20, angular: 20, for: links)
        counts = []
        for _ in 0..<240 {
            try world.step(count: 1)
            counts.append(world.lastStepProfile.substeps)
        }
        #expect(counts.suffix(60).allSatisfy { $0 == 4 }, "still at \(counts.suffix(60).max()!) substeps after 3 s")
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $1 <= $0 }, "the count rose again while the chain slowed")
    }

    @Test("a dragged attachment keeps the configured substeps while its anchor moves")
    func dragged() throws {
        // Eight 50 × 10 pt links hanging from a hand at the origin.
        let world = try DynamicWorld()
        let links = try world.createItems(ItemDescription(shape: .rectangle(width: 50, height: 10)),
                                          at: (0..<8).map { CGPoint(x: 0, y: 50 * CGFloat($0) + 25) },
                                          angles: Array(repeating: .pi / 2, count: 8))
        let pins = try world.addAttachments(.pin(), items: links, to: [nil] + links.dropLast(),
                                            anchors: (0..<8).map { CGPoint(x: 0, y: 50 * CGFloat($0)) })
        try world.setGravity(CGVector(dx: 0, dy: JointEnergyTests.gravity), for: links)
        // A hand whirls the chain's first link round a circle of 100 pt, twice a second: the tail whips, but
        // every step moves the anchor, so the chain is driven and the count stays.
        for k in 0..<120 {
            let t = Double(k) / 60
            try world.moveAnchor(of: pins[0], to: CGPoint(x: 100 * cos(4 * .pi * t), y: 100 * sin(4 * .pi * t)))
            try world.step(count: 1)
            #expect(world.lastStepProfile.substeps == 4, "step \(k) took \(world.lastStepProfile.substeps) substeps")
        }
        // Let go: the whirling chain swings freely, and its substeps rise.
        var counts: [Int] = []
        for _ in 0..<60 {
            try world.step(count: 1)
            counts.append(world.lastStepProfile.substeps)
        }
        #expect(counts.max()! > 4, "the free whirling chain stayed at 4 substeps")
    }

    /// An item falling from rest under gravity g, at a substep length that changes: semi-implicit Euler puts
    /// it at ½ g t² + ½ h₀ g t, h₀ the first substep length, as if the length had never changed. Without the
    /// half-step shift of the velocity at each change, the ½ h g t term would follow the later lengths
    /// (4.2 pt lower after the changes below). The oracle is the same fall at 4 substeps throughout, which
    /// rounds alike (and lands within 0.1 pt of the exact curve's 2 004.17 pt).
    @Test("a change of substeps between steps leaves a falling item on the same curve, with and without collision shapes",
          arguments: [false, true])
    func fallAcrossChanges(shaped: Bool) throws {
        func fall(_ counts: [Int]) throws -> Double {
            var configuration = DynamicsConfiguration()
            configuration.adaptiveSubsteps = false
            let world = try DynamicWorld(configuration: configuration)
            let item = try world.createItems(ItemDescription(shape: .rectangle(width: 10, height: 10)), at: [.zero])
            if shaped { try world.addCollisionShape(.rectangle(width: 10, height: 10), to: item) }
            try world.setGravity(CGVector(dx: 0, dy: 1000), for: item)
            for substeps in counts {
                configuration.substeps = substeps
                try world.reconfigure(configuration)
                try world.step(count: 30)
            }
            return Double(world.pose(of: item[0]).center.y)
        }
        let changing = try fall([4, 1, 2, 4]), steady = try fall([4, 4, 4, 4])
        #expect(abs(steady - (2000 + 0.5 * 1000 * 2 / 240)) < 0.1, "the steady fall reached \(steady) pt")
        #expect(abs(changing - steady) < 0.1, "fell to \(changing) pt, \(changing - steady) pt off the steady fall")
    }
}
