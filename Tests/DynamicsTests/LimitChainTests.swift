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

    static func pinChain(n: Int, ratio: CGFloat, lower: CGFloat = -0.5, upper: CGFloat = 0.5, horizontal: Bool,
                         kick: CGFloat = 600, seconds: Double = 4) throws -> Outcome
    {
        let w = try world()
        var anchored = ItemDescription(shape: .ellipse(width: 10, height: 10))
        anchored.isAnchored = true
        let top = try w.createItems(anchored, at: [.zero])[0]
        let (dx, dy): (CGFloat, CGFloat) = horizontal ? (1, 0) : (0, 1)
        let angle: CGFloat = horizontal ? 0 : .pi / 2
        let links = try w.createItems(ItemDescription(shape: .rectangle(width: 20, height: 4)),
                                      at: (0..<n).map { CGPoint(x: dx * (20 * CGFloat($0) + 10), y: dy * (20 * CGFloat($0) + 10)) },
                                      angles: Array(repeating: angle, count: n))
        // The load: a 20 × 20 pt box of density ratio/5 has ratio × a link's mass (a link is 80 pt² at density 1).
        let load = try w.createItems(ItemDescription(shape: .rectangle(width: 20, height: 20), density: ratio / 5),
                                     at: [CGPoint(x: dx * (20 * CGFloat(n) + 10), y: dy * (20 * CGFloat(n) + 10))],
                                     angles: [angle])[0]
        let items = links + [load]
        try w.setGravity(CGVector(dx: 0, dy: 1000), for: items)
        let limit = FloatRange(minimum: Double(lower), maximum: Double(upper))
        try w.addAttachments(.pin(range: limit), items: items, to: [top] + links.map { $0 },
                             anchors: (0...n).map { CGPoint(x: dx * 20 * CGFloat($0), y: dy * 20 * CGFloat($0)) })
        if !horizontal { try w.setVelocities([CGVector(dx: kick, dy: 0)], for: [load]) }
        let masses = Array(repeating: 0.008, count: n) + [0.008 * Double(ratio)] // density · area / 10 000
        func energy() -> Double {
            zip(items, masses).reduce(w.kineticEnergy) { $0 - $1.1 * 1000 * Double(w.pose(of: $1.0).center.y) }
        }
        var outcome = Outcome()
        outcome.startEnergy = energy()
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
            outcome.maxEnergy = max(outcome.maxEnergy, energy())
        }
        return outcome
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

    @Test("an asymmetric range holds, and a chain swinging against its limits does not gain energy")
    func asymmetric() throws {
        let o = try Self.pinChain(n: 20, ratio: 10, lower: -0.2, upper: 0.6, horizontal: true, seconds: 8)
        #expect(o.excess < 0.02, "[−0.2, 0.6] rad: \(o.excess) rad past the range")
        #expect(o.maxEnergy <= o.startEnergy + 1e-3 * abs(o.startEnergy), "energy \(o.maxEnergy), started at \(o.startEnergy)")
    }
}

