// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// Rotation limits of pins in chains under load (the chain solver's limit rows, joint_chain.c): how far a
/// joint's relative angle goes past its `attachmentRange`.
@Suite struct LimitChainTests {
    static func world() throws -> DynamicWorld {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        c.restDetection = false
        return try DynamicWorld(configuration: c)
    }

    /// A chain of `n` 20 × 4 pt links pinned end to end with the range [lower, upper] rad (relative to the
    /// start), from an anchored item at the origin,
    /// with a load `ratio` times a link's mass pinned (free) at the end. `horizontal`: released straight and
    /// horizontal; else hanging straight down, its load pushed sideways at `kick` pt/s; over `seconds`.
    struct Outcome {
        /// The largest excess of a joint's relative angle over its range, rad.
        var excess = 0.0
        /// The largest distance between the two anchors of a pin, pt (a sanity check that the chain holds
        /// together: the pins are stiff springs that stretch under a swinging chain's load).
        var gap = 0.0
        /// Kinetic plus potential energy (gravity 1000 pt/s² down), mass·pt²/s², at the start and its largest.
        var startEnergy = 0.0, maxEnergy = -Double.infinity
    }

    /// A world with gravity 1000 pt/s² down, an anchored item at the origin, `n` 20 × 4 pt links end to end
    /// from it along x (`horizontal`) or down along y, and a load of `ratio` links' mass (a 20 × 20 pt box) after
    /// them. Returns the anchored item, the links and the load (the moving items), their masses, and the links'
    /// angle at creation.
    static func chainWorld(n: Int, ratio: CGFloat, horizontal: Bool) throws
        -> (w: DynamicWorld, top: ItemID, items: [ItemID], masses: [Double], angle: CGFloat)
    {
        let w = try world()
        var anchored = ItemDescription(shape: .ellipse(width: 10, height: 10))
        anchored.isAnchored = true
        let top = try w.createItems(anchored, at: [.zero])[0]
        let angle: CGFloat = horizontal ? 0 : .pi / 2
        let centres = (0...n).map { chainPoint(20 * CGFloat($0) + 10, horizontal) }
        let links = try w.createItems(ItemDescription(shape: .rectangle(width: 20, height: 4)),
                                      at: Array(centres.dropLast()), angles: Array(repeating: angle, count: n))
        // A 20 × 20 pt box of density ratio/5 has ratio × a link's mass (a link is 80 pt² at density 1).
        let load = try w.createItems(ItemDescription(shape: .rectangle(width: 20, height: 20), density: ratio / 5),
                                     at: [centres[n]], angles: [angle])[0]
        let items = links + [load]
        try w.setGravity(CGVector(dx: 0, dy: 1000), for: items)
        let masses = Array(repeating: 0.008, count: n) + [0.008 * Double(ratio)] // density · area / 10 000
        return (w, top, items, masses, angle)
    }

    /// The point `distance` pt from the origin along the chain's direction at creation.
    static func chainPoint(_ distance: CGFloat, _ horizontal: Bool) -> CGPoint {
        horizontal ? CGPoint(x: distance, y: 0) : CGPoint(x: 0, y: distance)
    }

    /// Kinetic plus potential energy (gravity 1000 pt/s² down), mass·pt²/s².
    static func energy(_ w: DynamicWorld, _ items: [ItemID], _ masses: [Double]) -> Double {
        zip(items, masses).reduce(w.kineticEnergy) { $0 - $1.1 * 1000 * Double(w.pose(of: $1.0).center.y) }
    }

    /// A chain of `n` links pinned end to end with the range [lower, upper] rad (relative to the start), from
    /// an anchored item at the origin, with a load `ratio` times a link's mass pinned (free) at the end.
    /// `horizontal`: released straight and horizontal; else hanging straight down, its load pushed sideways
    /// at `kick` pt/s; over `seconds`.
    static func pinChain(n: Int, ratio: CGFloat, lower: CGFloat = -0.5, upper: CGFloat = 0.5, horizontal: Bool,
                         kick: CGFloat = 600, seconds: Double = 4) throws -> Outcome
    {
        let (w, top, items, masses, angle) = try chainWorld(n: n, ratio: ratio, horizontal: horizontal)
        let limit = FloatRange(minimum: Double(lower), maximum: Double(upper))
        try w.addAttachments(.pin(range: limit), items: items, to: [top] + items.dropLast().map { $0 },
                             anchors: (0...n).map { chainPoint(20 * CGFloat($0), horizontal) })
        if !horizontal { try w.setVelocities([CGVector(dx: kick, dy: 0)], for: [items[n]]) }
        var outcome = Outcome()
        outcome.startEnergy = energy(w, items, masses)
        for _ in 0..<Int(seconds * 60) {
            try w.step(count: 1)
            var previous = 0.0, end = CGPoint.zero
            for (k, id) in items.enumerated() {
                let pose = w.pose(of: id)
                let a = Double(pose.angle) - Double(angle)
                let relative = a - (k == 0 ? 0 : previous)
                outcome.excess = max(outcome.excess, relative - Double(upper), Double(lower) - relative)
                previous = a
                // The pin at this item's near end against the previous item's far end (the anchor for the first).
                let half: CGFloat = 10 // links and load both reach 10 pt from the centre to each pin
                let near = CGPoint(x: pose.center.x - half * cos(pose.angle), y: pose.center.y - half * sin(pose.angle))
                outcome.gap = max(outcome.gap, Double(hypot(near.x - end.x, near.y - end.y)))
                end = CGPoint(x: pose.center.x + half * cos(pose.angle), y: pose.center.y + half * sin(pose.angle))
            }
            outcome.maxEnergy = max(outcome.maxEnergy, energy(w, items, masses))
        }
        return outcome
    }

    /// A telescoping pendulum: the first link pinned (free) to an anchored item at the origin, and each
    /// further link and the load attached to the one before by a slider along the chain with the range
    /// [−`range`, `range`] pt. `horizontal`: released straight and horizontal (the swing's pull opens every
    /// slider to its upper bound); else hanging straight down (gravity opens them), its load pushed sideways
    /// at `kick` pt/s. `excess` is in pt; `gap` is the largest sideways offset of a slider's two items
    /// (from the axis) and `turn` the largest relative angle of two slid items, rad.
    static func sliderChain(n: Int, ratio: CGFloat, range: CGFloat = 5, horizontal: Bool, kick: CGFloat = 600,
                            seconds: Double = 4) throws -> (outcome: Outcome, turn: Double)
    {
        let (w, top, items, masses, _) = try chainWorld(n: n, ratio: ratio, horizontal: horizontal)
        try w.addAttachments(.pin(), items: [items[0]], to: [top], anchors: [.zero])
        let axis = horizontal ? CGVector(dx: 1, dy: 0) : CGVector(dx: 0, dy: 1)
        try w.addAttachments(.slider(axis: axis, range: FloatRange(minimum: -Double(range), maximum: Double(range))),
                             items: Array(items.dropFirst()), to: items.dropLast().map { $0 },
                             anchors: (1...n).map { chainPoint(20 * CGFloat($0), horizontal) })
        if !horizontal { try w.setVelocities([CGVector(dx: kick, dy: 0)], for: [items[n]]) }
        var outcome = Outcome(), turn = 0.0
        outcome.startEnergy = energy(w, items, masses)
        for _ in 0..<Int(seconds * 60) {
            try w.step(count: 1)
            for k in 1...n {
                let a = w.pose(of: items[k - 1]), b = w.pose(of: items[k])
                // The axis turns with the earlier item; at creation the centres were 20 pt apart along it.
                let ux = Double(cos(a.angle)), uy = Double(sin(a.angle))
                let dx = Double(b.center.x - a.center.x), dy = Double(b.center.y - a.center.y)
                let offset = ux * dx + uy * dy - 20
                outcome.excess = max(outcome.excess, offset - Double(range), -Double(range) - offset)
                outcome.gap = max(outcome.gap, abs(ux * dy - uy * dx))
                turn = max(turn, abs(Double(remainder(b.angle - a.angle, 2 * .pi))))
            }
            outcome.maxEnergy = max(outcome.maxEnergy, energy(w, items, masses))
        }
        return (outcome, turn)
    }

    @Test("pin ranges hold within 0.02 rad in chains released horizontally, links as heavy as or 10× lighter than their load",
          arguments: [5, 10, 25, 50])
    func released(links: Int) throws {
        for ratio in [1.0, 10.0] {
            let o = try Self.pinChain(n: links, ratio: ratio, horizontal: true)
            #expect(o.excess < 0.02, "\(links) links, load \(ratio) links: \(o.excess) rad past the range")
            #expect(o.gap < 1.5, "\(links) links, load \(ratio) links: pins \(o.gap) pt apart")
        }
    }

    @Test("pin ranges hold within 0.02 rad in hanging chains whose load is pushed sideways", arguments: [5, 10, 25, 50])
    func hanging(links: Int) throws {
        for ratio in [1.0, 10.0] {
            let o = try Self.pinChain(n: links, ratio: ratio, horizontal: false, kick: 1500)
            #expect(o.excess < 0.02, "\(links) links, load \(ratio) links: \(o.excess) rad past the range")
            #expect(o.gap < 1.5, "\(links) links, load \(ratio) links: pins \(o.gap) pt apart")
        }
    }

    @Test("slider ranges hold within 0.5 pt in telescoping chains released horizontally", arguments: [5, 10, 25, 50])
    func slidersReleased(links: Int) throws {
        for ratio in [1.0, 10.0] {
            let (o, turn) = try Self.sliderChain(n: links, ratio: ratio, horizontal: true)
            #expect(o.excess < 0.5, "\(links) links, load \(ratio) links: \(o.excess) pt past the range")
            // The slider's other rows are stiff springs (as a pin's point rows): they give a little under the load.
            #expect(o.gap < 0.5 && turn < 0.05, "\(links) links, load \(ratio) links: \(o.gap) pt off the axis, turned \(turn) rad")
            #expect(o.maxEnergy <= o.startEnergy + 1e-3 * abs(o.startEnergy), "energy \(o.maxEnergy), started at \(o.startEnergy)")
        }
    }

    @Test("slider ranges hold within 0.5 pt in hanging telescoping chains whose load is pushed sideways",
          arguments: [5, 10, 25, 50])
    func slidersHanging(links: Int) throws {
        for ratio in [1.0, 10.0] {
            let (o, turn) = try Self.sliderChain(n: links, ratio: ratio, horizontal: false, kick: 1500)
            #expect(o.excess < 0.5, "\(links) links, load \(ratio) links: \(o.excess) pt past the range")
            // The slider's other rows are stiff springs (as a pin's point rows): they give a little under the load.
            #expect(o.gap < 0.5 && turn < 0.05, "\(links) links, load \(ratio) links: \(o.gap) pt off the axis, turned \(turn) rad")
        }
    }

    @Test("an asymmetric range holds, and a chain swinging against its limits does not gain energy")
    func asymmetric() throws {
        let o = try Self.pinChain(n: 20, ratio: 10, lower: -0.2, upper: 0.6, horizontal: true, seconds: 8)
        #expect(o.excess < 0.02, "[−0.2, 0.6] rad: \(o.excess) rad past the range")
        #expect(o.maxEnergy <= o.startEnergy + 1e-3 * abs(o.startEnergy), "energy \(o.maxEnergy), started at \(o.startEnergy)")
    }
}

