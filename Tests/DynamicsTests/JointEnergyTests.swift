// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// Rigid attachments do no work: a pendulum on a rod or a pin, or a chain of them, with no friction,
/// resistance or elasticity, keeps its energy (kinetic plus potential) from drifting by more than 1 % over
/// 10 s at the default settings from any release angle (and within 2 % at every step), and its lengths
/// within 0.1 pt. (Box2D's rigid joints keep it within
/// ±0.5 %; before the chain projection kept velocities consistent, a rod released horizontally kept 88 %;
/// before the substeps adapted to a whipping chain, eight pinned links released from 170° lost 33 %.)
@Suite struct JointEnergyTests {
    enum Pendulum: String, CaseIterable, Sendable {
        /// A 20 × 20 pt box on a 200 pt rod to a fixed anchor.
        case rod
        /// The same box pinned at a fixed point 200 pt from its centre.
        case pin
        /// Four 20 × 20 pt boxes joined by 50 pt rods, the first to a fixed anchor.
        case rodChain
        /// Four 50 × 10 pt links pinned end to end, the first to a fixed point.
        case pinChain
        /// Eight such links: released high, the tail whips round (``DynamicsConfiguration/adaptiveSubsteps``).
        case pinChain8
        /// Sixteen such links.
        case pinChain16

        var itemCount: Int {
            switch self {
            case .rod, .pin: 1
            case .rodChain, .pinChain: 4
            case .pinChain8: 8
            case .pinChain16: 16
            }
        }
    }

    static let gravity: CGFloat = 1000

    /// Kinetic plus potential energy (gravity +y), mass·pt²/s².
    static func energy(_ world: DynamicWorld, _ ids: [ItemID]) -> Double {
        var potential = 0.0
        for id in ids { potential -= Double(world.mass(of: id)) * Double(gravity) * Double(world.pose(of: id).center.y) }
        return world.kineticEnergy + potential
    }

    /// Builds the pendulum released from rest at `angle` (rad from hanging straight down) about the anchor at
    /// the origin, along one line from it; returns its items.
    static func build(_ kind: Pendulum, angle: CGFloat, in world: DynamicWorld) throws -> [ItemID] {
        let direction = CGVector(dx: sin(angle), dy: cos(angle))
        func at(_ distance: CGFloat) -> CGPoint { CGPoint(x: direction.dx * distance, y: direction.dy * distance) }
        switch kind {
        case .rod, .pin:
            let box = try world.createItems(ItemDescription(shape: .rectangle(width: 20, height: 20)), at: [at(200)], angles: [-angle])
            if kind == .rod {
                try world.addAttachments(.rod(), items: box, to: [nil], anchors: [.zero], itemAnchors: [at(200)])
            } else {
                try world.addAttachments(.pin(), items: box, to: [nil], anchors: [.zero])
            }
            return box
        case .rodChain:
            let boxes = try world.createItems(ItemDescription(shape: .rectangle(width: 20, height: 20)),
                                              at: (1...4).map { at(50 * CGFloat($0)) }, angles: Array(repeating: -angle, count: 4))
            try world.addAttachments(.rod(), items: boxes, to: [nil] + boxes.dropLast(), anchors: (0..<4).map { at(50 * CGFloat($0)) },
                                     itemAnchors: (1...4).map { at(50 * CGFloat($0)) })
            return boxes
        case .pinChain, .pinChain8, .pinChain16:
            // Links along the direction: a 50 × 10 box turned so that its length points away from the anchor.
            let n = kind.itemCount
            let links = try world.createItems(ItemDescription(shape: .rectangle(width: 50, height: 10)),
                                              at: (0..<n).map { at(50 * CGFloat($0) + 25) },
                                              angles: Array(repeating: .pi / 2 - angle, count: n))
            try world.addAttachments(.pin(), items: links, to: [nil] + links.dropLast(), anchors: (0..<n).map { at(50 * CGFloat($0)) })
            return links
        }
    }

    /// A swing released from rest: how its energy and lengths fared, and the substeps each step took.
    struct Swing {
        /// The change of the energy's mean over a second, first second to last, as a fraction of the energy
        /// the swing has to spend (within a swing it also oscillates, by the step's first-order error, which
        /// halves with each doubling of the substeps).
        var drift: Double
        /// The energy's widest excursion from the start, as the same fraction.
        var band: Double
        /// The largest length error of an attachment at any step, pt.
        var worstLength: CGFloat
        /// ``StepProfile/substeps`` of every step.
        var substeps: [Int]
        /// Items still awake at the end.
        var awake: Int
    }

    /// Releases `kind` from `degrees` (from hanging straight down) in a world of `configuration` and steps it
    /// `steps` times at 60 steps per second.
    static func swing(_ kind: Pendulum, degrees: Double, configuration: DynamicsConfiguration = .init(),
                      steps: Int = 600) throws -> Swing
    {
        let world = try DynamicWorld(configuration: configuration)
        let ids = try build(kind, angle: CGFloat(degrees * .pi / 180), in: world)
        try world.setGravity(CGVector(dx: 0, dy: gravity), for: ids)
        let start = energy(world, ids)
        // The energy the swing has to spend: from the release height to the lowest pose, all items hanging.
        var lowest = 0.0
        for id in ids { lowest -= Double(world.mass(of: id)) * Double(gravity) * Double(hypot(world.pose(of: id).center.x, world.pose(of: id).center.y)) }
        let scale = start - lowest
        // What the attachments hold, sampled every step: a rod's length between its anchor points, a pin's
        // gap between its two points (each link's ends are 25 pt from its centre along its length).
        func point(_ id: ItemID, _ local: CGFloat) -> CGPoint {
            let (c, a) = world.pose(of: id)
            return CGPoint(x: c.x + local * cos(a), y: c.y + local * sin(a))
        }
        func centre(_ id: ItemID) -> CGPoint { world.pose(of: id).center }
        func distance(_ p: CGPoint, _ q: CGPoint) -> CGFloat { hypot(p.x - q.x, p.y - q.y) }
        func errors() -> [CGFloat] {
            switch kind {
            case .rod: return [distance(centre(ids[0]), .zero) - 200]
            case .pin: return [distance(point(ids[0], 0), .zero) - 200]  // the centre stays 200 pt from the pin
            case .rodChain:
                return [distance(centre(ids[0]), .zero) - 50] + zip(ids, ids.dropFirst()).map { distance(centre($0), centre($1)) - 50 }
            case .pinChain, .pinChain8, .pinChain16:
                return [distance(point(ids[0], -25), .zero)] + zip(ids, ids.dropFirst()).map { distance(point($0, 25), point($1, -25)) }
            }
        }
        var worstLength: CGFloat = errors().map(abs).max()!
        var energies: [Double] = [], substeps: [Int] = []
        for _ in 0..<steps {
            try world.step(count: 1)
            worstLength = max(worstLength, errors().map(abs).max()!)
            energies.append(energy(world, ids))
            substeps.append(world.lastStepProfile.substeps)
        }
        let mean = { (slice: ArraySlice<Double>) in slice.reduce(0, +) / Double(slice.count) }
        return Swing(drift: (mean(energies.suffix(60)) - mean(energies.prefix(60))) / scale,
                     band: energies.map { abs($0 - start) }.max()! / scale, worstLength: worstLength,
                     substeps: substeps, awake: world.awakeItemCount)
    }

    @Test("rigid pendulums and chains drift by at most 1 % of their energy over 10 s, and hold their lengths within 0.1 pt",
          arguments: Pendulum.allCases, [10.0, 45, 90, 120, 135, 145, 155, 170, 178])
    func energyKept(_ kind: Pendulum, degrees: Double) throws {
        let s = try Self.swing(kind, degrees: degrees)
        #expect(abs(s.drift) <= 0.01, "\(kind) from \(degrees)°: energy drifted by \(s.drift * 100) % of the swing's")
        #expect(s.band <= 0.02, "\(kind) from \(degrees)°: energy strayed by \(s.band * 100) % of the swing's")
        #expect(s.worstLength <= 0.1, "\(kind) from \(degrees)°: a length moved by \(s.worstLength) pt")
        #expect(s.awake == kind.itemCount, "still swinging")
    }
}
