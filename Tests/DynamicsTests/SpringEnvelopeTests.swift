// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// Springs against the damped oscillator x'' = −ω² x − 2ζω x' (ω = 2π·frequency).
///
/// The oracle: a trajectory of an oscillator sampled every step satisfies y[n+2] = a₁ y[n+1] + a₂ y[n], whose
/// roots are e^{(−ζω ± iω_d) Δt}. A least-squares fit of a₁ and a₂ (Prony's method) gives the frequency and
/// the decay rate the simulation actually has, which are compared with ω_d = ω√(1−ζ²) and ζω. A joint
/// spring's warm start adds a third mode that shrinks 3× per substep (oscillator.h), so joint trajectories
/// are fitted once that mode is below 10⁻⁴ of the motion (from the fourth sample at 4 substeps).
@Suite struct SpringEnvelopeTests {
    struct Envelope {
        /// Damped angular frequency, rad/s (0 when the roots are real).
        var omega: Double
        /// Decay rate of the envelope, 1/s.
        var decay: Double
    }

    /// Fits y[n+2] = a₁ y[n+1] + a₂ y[n] over the samples until |y| first falls below `floor` for good.
    static func envelope(_ y: [Double], dt: Double, floor: Double) -> Envelope {
        let last = y.lastIndex { abs($0) > floor } ?? y.count - 1
        var s11 = 0.0, s12 = 0.0, s22 = 0.0, r1 = 0.0, r2 = 0.0
        for n in 0..<max(0, min(last, y.count - 2)) {
            let (u, v, w) = (y[n + 1], y[n], y[n + 2])
            s11 += u * u; s12 += u * v; s22 += v * v; r1 += u * w; r2 += v * w
        }
        let det = s11 * s22 - s12 * s12
        let a1 = (s22 * r1 - s12 * r2) / det, a2 = (s11 * r2 - s12 * r1) / det
        let modulus = (-a2).squareRoot()
        let decay = -log(modulus) / dt
        let cosine = a1 / (2 * modulus)
        return Envelope(omega: abs(cosine) < 1 ? acos(cosine) / dt : 0, decay: decay)
    }

    static func world(substeps: Int = 4, iterations: Int = 1) throws -> DynamicWorld {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        c.substeps = substeps
        c.solverIterations = iterations
        c.restDetection = false
        return try DynamicWorld(configuration: c)
    }

    static func ball(_ world: DynamicWorld, at p: CGPoint) throws -> ItemID {
        try world.createItems(ItemDescription(shape: .ellipse(width: 20, height: 20)), at: [p])[0]
    }

    /// Checks a measured envelope against the oscillator of `frequency` Hz and damping ratio `zeta`: 1 % in
    /// frequency (for ζ < 1) and 2 % in decay rate.
    static func expectOscillator(_ e: Envelope, frequency: Double, zeta: Double, _ what: String) {
        let omega = 2 * Double.pi * frequency
        let decay = zeta * omega, damped = omega * max(0, 1 - zeta * zeta).squareRoot()
        #expect(abs(e.decay / decay - 1) < 0.02, "\(what): decay \(e.decay) /s, oscillator \(decay) /s")
        if zeta < 1 {
            #expect(abs(e.omega / damped - 1) < 0.01, "\(what): ω_d \(e.omega) rad/s, oscillator \(damped) rad/s")
        }
    }

    /// The stretch of a spring between an item and an anchor at the origin, one sample per step.
    static func anchoredSpring(frequency: Double, zeta: Double, substeps: Int = 4, iterations: Int = 1) throws
        -> [Double]
    {
        let w = try world(substeps: substeps, iterations: iterations)
        let length: CGFloat = 60, stretch: CGFloat = 40
        let item = try ball(w, at: CGPoint(x: length + stretch, y: 0))
        try w.addAttachments(.rod(length: length, frequency: frequency, damping: zeta), items: [item], to: [nil],
                             anchors: [.zero], itemAnchors: [CGPoint(x: length + stretch, y: 0)])
        var y: [Double] = []
        for _ in 0..<900 {
            try w.step(count: 1)
            let p = w.pose(of: item).center
            y.append(Double(hypot(p.x, p.y) - length))
        }
        // The warm start's mode shrinks 3^substeps per sample: start once it is below 10⁻⁴ of the motion.
        return Array(y.dropFirst((9 + substeps - 1) / substeps))
    }

    @Test("a spring to an anchor has the oscillator's frequency and decay", arguments: [0.5, 1, 2, 5, 10])
    func anchored(frequency: Double) throws {
        for zeta in [0.1, 0.3, 0.5, 0.7, 1.0] {
            let y = try Self.anchoredSpring(frequency: frequency, zeta: zeta)
            Self.expectOscillator(Self.envelope(y, dt: 1.0 / 60, floor: 0.04), frequency: frequency, zeta: zeta,
                                  "\(frequency) Hz, ζ \(zeta)")
        }
    }

    @Test("the envelope holds at other substeps and with two solver iterations")
    func otherSettings() throws {
        for (substeps, iterations) in [(1, 1), (2, 1), (8, 1), (4, 2), (4, 4)] {
            for (frequency, zeta) in [(2.0, 0.2), (8.0, 0.6)] {
                let y = try Self.anchoredSpring(frequency: frequency, zeta: zeta, substeps: substeps,
                                                iterations: iterations)
                Self.expectOscillator(Self.envelope(y, dt: 1.0 / 60, floor: 0.04), frequency: frequency, zeta: zeta,
                                      "\(frequency) Hz, ζ \(zeta), \(substeps) substeps, \(iterations) iterations")
            }
        }
    }

    @Test("a spring between two free items oscillates at its frequency about their centre of mass")
    func free() throws {
        let w = try Self.world()
        let a = try Self.ball(w, at: CGPoint(x: 0, y: 0))
        let b = try w.createItems(ItemDescription(shape: .ellipse(width: 20, height: 20), density: 3),
                                  at: [CGPoint(x: 130, y: 0)])[0]
        try w.addAttachments(.rod(length: 100, frequency: 3, damping: 0.25), items: [a], to: [b],
                             anchors: [CGPoint(x: 130, y: 0)], itemAnchors: [.zero])
        var y: [Double] = []
        for _ in 0..<600 {
            try w.step(count: 1)
            let (p, q) = (w.pose(of: a).center, w.pose(of: b).center)
            y.append(Double(hypot(q.x - p.x, q.y - p.y)) - 100)
        }
        Self.expectOscillator(Self.envelope(Array(y.dropFirst(3)), dt: 1.0 / 60, floor: 0.04), frequency: 3, zeta: 0.25, "two items")
    }

    /// The rest stretch under a load g is g/ω² within 0.5 g h² (oscillator.h: about −0.4 (ωh)² of it).
    @Test("a weight on a spring rests at the spring's stretch g / ω²", arguments: [0.5, 1, 2, 5, 10])
    func sag(frequency: Double) throws {
        let w = try Self.world()
        let item = try Self.ball(w, at: CGPoint(x: 0, y: 80))
        try w.setGravity(CGVector(dx: 0, dy: 1000), for: [item])
        try w.addAttachments(.rod(length: 80, frequency: frequency, damping: 1), items: [item], to: [nil],
                             anchors: [.zero], itemAnchors: [CGPoint(x: 0, y: 80)])
        try w.step(count: 600)
        let omega = 2 * Double.pi * frequency
        let stretch = Double(w.pose(of: item).center.y) - 80, expected = 1000 / (omega * omega)
        let h = 1.0 / 240
        #expect(abs(stretch - expected) < 0.5 * 1000 * h * h, "\(frequency) Hz: stretch \(stretch) pt, g/ω² \(expected) pt")
    }

    @Test("the snap has the oscillator's frequency and decay, in position and angle",
          arguments: [0.1, 0.3, 0.5, 0.7, 1.0])
    func snap(zeta: Double) throws {
        for frequency in [1.0, 2.5, 10] {
            let w = try Self.world()
            let item = try Self.ball(w, at: CGPoint(x: 100, y: 0))
            try w.setPositions([CGPoint(x: 100, y: 0)], angles: [1], for: [item])
            try w.setSnap(to: .zero, frequency: frequency, dampingRatio: zeta, for: [item])
            var x: [Double] = [100], angle: [Double] = [1]
            for _ in 0..<900 {
                try w.step(count: 1)
                x.append(Double(w.pose(of: item).center.x))
                angle.append(Double(w.pose(of: item).angle))
            }
            Self.expectOscillator(Self.envelope(x, dt: 1.0 / 60, floor: 0.1), frequency: frequency, zeta: zeta,
                                  "snap \(frequency) Hz, ζ \(zeta)")
            Self.expectOscillator(Self.envelope(angle, dt: 1.0 / 60, floor: 1e-3), frequency: frequency,
                                  zeta: zeta, "snap angle \(frequency) Hz, ζ \(zeta)")
        }
    }

    @Test("the snap's overshoot is the oscillator's, and under gravity it rests g / ω² below the point")
    func snapOvershootAndSag() throws {
        for zeta in [0.1, 0.3, 0.525] {
            let w = try Self.world()
            let item = try Self.ball(w, at: CGPoint(x: 100, y: 0))
            try w.setSnap(to: .zero, frequency: 2.5, dampingRatio: zeta, for: [item])
            let omega = 2 * Double.pi * 2.5, damped = omega * (1 - zeta * zeta).squareRoot()
            var measured = 0.0, oscillator = 0.0
            for n in 1...120 {
                try w.step(count: 1)
                measured = max(measured, -Double(w.pose(of: item).center.x))
                let t = Double(n) / 60
                let x = 100 * exp(-zeta * omega * t) * (cos(damped * t) + zeta * omega / damped * sin(damped * t))
                oscillator = max(oscillator, -x)
            }
            #expect(abs(measured / oscillator - 1) < 0.02, "ζ \(zeta): overshoot \(measured) pt, oscillator \(oscillator) pt")
        }
        let w = try Self.world()
        let item = try Self.ball(w, at: .zero)
        try w.setGravity(CGVector(dx: 0, dy: 1000), for: [item])
        try w.setSnap(to: .zero, frequency: 2.5, dampingRatio: 1, for: [item])
        try w.step(count: 300)
        let expected = 1000 / pow(2 * Double.pi * 2.5, 2), sag = Double(w.pose(of: item).center.y)
        #expect(abs(sag / expected - 1) < 0.005, "snap under gravity: \(sag) pt below, g/ω² \(expected) pt")
    }
}

extension SpringEnvelopeTests {
    /// Two springs in series (anchor – spring – A – spring – B, equal masses, equal stiffness k: the A–B
    /// spring's frequency is √2 times the anchor's, as its effective mass is half). Each normal mode,
    /// started alone, must keep the two-mass system's frequency ω₁·√((3 ∓ √5)/2). The solver takes the two
    /// springs one after the other in a substep, so this is what holds for coupled springs, not an exact map.
    @Test("two springs in series oscillate in the normal modes of two masses", arguments: [1.0, 2.5, 5])
    func series(frequency: Double) throws {
        for (ratio, shape) in [((3 - 5.0.squareRoot()) / 2, (1 + 5.0.squareRoot()) / 2),
                               ((3 + 5.0.squareRoot()) / 2, (1 - 5.0.squareRoot()) / 2)]
        {
            let w = try Self.world()
            let (la, lb): (CGFloat, CGFloat) = (100, 100)
            let amplitude = 10.0
            let ax = la + CGFloat(amplitude), bx = la + lb + CGFloat(amplitude * shape)
            let a = try Self.ball(w, at: CGPoint(x: ax, y: 0)), b = try Self.ball(w, at: CGPoint(x: bx, y: 0))
            try w.addAttachments(.rod(length: la, frequency: frequency, damping: 0), items: [a], to: [nil],
                                 anchors: [.zero], itemAnchors: [CGPoint(x: ax, y: 0)])
            try w.addAttachments(.rod(length: lb, frequency: frequency * 2.0.squareRoot(), damping: 0), items: [b],
                                 to: [a], anchors: [CGPoint(x: ax, y: 0)], itemAnchors: [CGPoint(x: bx, y: 0)])
            var y: [Double] = []
            for _ in 0..<600 {
                try w.step(count: 1)
                y.append(Double(w.pose(of: a).center.x - la))
            }
            let e = Self.envelope(Array(y.dropFirst(3)), dt: 1.0 / 60, floor: 0.04)
            let expected = 2 * Double.pi * frequency * ratio.squareRoot()
            #expect(abs(e.omega / expected - 1) < 0.01, "\(frequency) Hz, mode \(ratio): ω \(e.omega), two masses \(expected)")
            #expect(abs(e.decay) < 0.002 * expected, "\(frequency) Hz, mode \(ratio): decay \(e.decay) /s, undamped")
        }
    }
}
