// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// The spring timing curve against an independent oracle (the ODE integrated by fourth-order Runge–Kutta),
/// UIKit's two ways of describing a spring, the settling time's definition, and the bulk sampler.
@Suite struct SpringTimingCurveTests {
    /// x'' = ω²(1 − x) − 2ζω x' by RK4 with `steps` steps up to `time`.
    static func integrate(_ c: SpringTimingCurve, to time: Double, steps: Int = 20_000) -> (x: Double, v: Double) {
        let w = c.naturalFrequency, z = c.dampingRatio, h = time / Double(steps)
        func f(_ x: Double, _ v: Double) -> (Double, Double) { (v, w * w * (1 - x) - 2 * z * w * v) }
        var (x, v) = (0.0, c.initialVelocity)
        for _ in 0..<steps {
            let k1 = f(x, v), k2 = f(x + h / 2 * k1.0, v + h / 2 * k1.1)
            let k3 = f(x + h / 2 * k2.0, v + h / 2 * k2.1), k4 = f(x + h * k3.0, v + h * k3.1)
            x += h / 6 * (k1.0 + 2 * k2.0 + 2 * k3.0 + k4.0)
            v += h / 6 * (k1.1 + 2 * k2.1 + 2 * k3.1 + k4.1)
        }
        return (x, v)
    }

    static let cases: [SpringTimingCurve] = [
        SpringTimingCurve(naturalFrequency: 20, dampingRatio: 0.1), SpringTimingCurve(naturalFrequency: 12, dampingRatio: 0.4, initialVelocity: 3),
        SpringTimingCurve(naturalFrequency: 8, dampingRatio: 1), SpringTimingCurve(naturalFrequency: 8, dampingRatio: 1, initialVelocity: -5),
        SpringTimingCurve(naturalFrequency: 5, dampingRatio: 2.5), SpringTimingCurve(naturalFrequency: 30, dampingRatio: 1.0001, initialVelocity: 10),
    ]

    @Test("progress and velocity follow the closed forms: under-, critically and overdamped, against RK4", arguments: cases)
    func closedForms(curve: SpringTimingCurve) {
        #expect(curve.progress(at: 0) == 0 && curve.velocity(at: 0) == curve.initialVelocity)
        for t in [0.05, 0.13, 0.4, 1.1] {
            let oracle = Self.integrate(curve, to: t)
            #expect(abs(curve.progress(at: t) - oracle.x) < 1e-9, "\(curve) at \(t): \(curve.progress(at: t)) vs \(oracle.x)")
            #expect(abs(curve.velocity(at: t) - oracle.v) < 1e-7 * max(1, abs(oracle.v)), "velocity at \(t)")
        }
        #expect(abs(curve.progress(at: 60) - 1) < 1e-9)
    }

    @Test("CASpringAnimation's mass, stiffness and damping give ω = √(k/m) and ζ = c / (2√(km))")
    func caSpringParameters() {
        let c = SpringTimingCurve(mass: 2, stiffness: 200, damping: 8, initialVelocity: 1)
        #expect(abs(c.naturalFrequency - 10) < 1e-12 && abs(c.dampingRatio - 0.2) < 1e-12 && c.initialVelocity == 1)
        #expect(c.regime == .underdamped)
        #expect(SpringTimingCurve(stiffness: 100, damping: 20).regime == .criticallyDamped)
        #expect(SpringTimingCurve(stiffness: 100, damping: 30).regime == .overdamped)
    }

    @Test("the settling duration is the last time the progress is 0.001 from its end", arguments: cases)
    func settling(curve: SpringTimingCurve) {
        let t = curve.settlingDuration, eps = SpringTimingCurve.settlingTolerance
        #expect(t.isFinite && t > 0)
        #expect(abs(abs(1 - curve.progress(at: t)) - eps) < 1e-6, "at the settling time the distance is the tolerance")
        for k in 1...4000 {  // after it, never farther than the tolerance (checked densely)
            let s = t + Double(k) * t / 1000
            if abs(1 - curve.progress(at: s)) >= eps { Issue.record("\(curve): |1 − x(\(s))| ≥ \(eps)"); break }
        }
    }

    @Test("UIKit's duration form settles, within 0.001, exactly at the end of the duration")
    func durationForm() {
        for (duration, ratio, velocity) in [(0.5, 0.4, 0.0), (0.3, 1.0, 0.0), (1.2, 0.7, 4.0), (0.8, 2.0, 0.0), (2, 0.05, -1.0)] {
            let c = SpringTimingCurve(duration: duration, dampingRatio: ratio, initialVelocity: velocity)
            #expect(abs(c.settlingDuration - duration) < 1e-6 * duration, "\(duration) s, ζ \(ratio): settles at \(c.settlingDuration)")
            #expect(c.dampingRatio == ratio && c.initialVelocity == velocity)
        }
        // A lower damping ratio oscillates: ζ 0.4 overshoots by exp(−πζ/√(1 − ζ²)) = 25.4 %.
        let bouncy = SpringTimingCurve(duration: 0.5, dampingRatio: 0.4)
        let peakTime = Double.pi / (bouncy.naturalFrequency * (1 - 0.16).squareRoot())
        #expect(abs(bouncy.progress(at: peakTime) - (1 + exp(-Double.pi * 0.4 / (1 - 0.16).squareRoot()))) < 1e-9)
    }

    @Test("sampling a million curves at once agrees with the closed form, with the same bits at every SIMD level and worker count")
    func bulk() throws {
        var g = SeededGenerator(seed: 26)
        let curves = (0..<5000).map { _ in
            SpringTimingCurve(naturalFrequency: 2 + 40 * g.unit(), dampingRatio: [0.05 + 0.9 * g.unit(), 1, 1 + 3 * g.unit()][Int(g.next() % 3)],
                              initialVelocity: 10 * g.unit() - 5)
        }
        let interval = 1.0 / 60, count = 60
        let wide = try SpringTimingCurve.sample(curves, interval: interval, count: count, workers: 2)
        let scalar = try SpringTimingCurve.sample(curves, interval: interval, count: count, workers: 1, simd: .scalar)
        #expect(wide.count == curves.count * count)
        #expect(wide.map(\.bitPattern) == scalar.map(\.bitPattern), "the SIMD level or worker count changed a bit")
        var worst = 0.0
        for (c, curve) in curves.enumerated() {
            for k in 0..<count { worst = max(worst, abs(Double(wide[k * curves.count + c]) - curve.progress(at: Double(k) * interval))) }
        }
        #expect(worst < 1e-5, "the samples drifted from the closed form by \(worst)")
        // Into a reused buffer: the same values, and the buffer resized to fit.
        var buffer: [Float] = [1, 2, 3]
        try SpringTimingCurve.sample(curves, interval: interval, count: count, into: &buffer, workers: 2)
        #expect(buffer.map(\.bitPattern) == wide.map(\.bitPattern))
        try SpringTimingCurve.sample(Array(curves.prefix(10)), interval: interval, count: count, into: &buffer)
        #expect(buffer.count == 600 && buffer[599] == wide[59 * curves.count + 9])
    }

    @Test("bad arguments of the sampler throw, naming the field")
    func bulkErrors() throws {
        let c = [SpringTimingCurve(naturalFrequency: 10, dampingRatio: 0.5)]
        #expect(throws: DynamicsError.invalidValue(field: "interval", value: 0, index: nil)) {
            try SpringTimingCurve.sample(c, interval: 0, count: 3)
        }
        #expect(throws: DynamicsError.invalidValue(field: "count", value: -1, index: nil)) {
            try SpringTimingCurve.sample(c, interval: 0.1, count: -1)
        }
        #expect(throws: DynamicsError.invalidValue(field: "workers", value: 0, index: nil)) {
            try SpringTimingCurve.sample(c, interval: 0.1, count: 3, workers: 0)
        }
        #expect(try SpringTimingCurve.sample([], interval: 0.1, count: 3).isEmpty)
    }

    /// The transition of UIKit code written as
    /// `UIView.animate(withDuration: 0.6, delay: 0, usingSpringWithDamping: 0.4, initialSpringVelocity: 0) {
    /// view.transform = CGAffineTransform(scaleX: 1.5, y: 1.5); view.center = target }`, driven by the curve.
    @Test("a view scaled and moved with usingSpringWithDamping 0.4 overshoots by 25 % and settles at the duration")
    func transition() {
        let view = DynamicBody(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let (startCenter, target) = (view.center, CGPoint(x: 200, y: 300))
        let curve = SpringTimingCurve(duration: 0.6, dampingRatio: 0.4, initialVelocity: 0)
        var biggest = 1.0, farthest = 0.0
        for frame in 0...36 {  // 60 frames per second
            let p = curve.progress(at: Double(frame) / 60)
            let scale = 1 + 0.5 * p
            view.transform = CGAffineTransform(scaleX: scale, y: scale)
            view.center = CGPoint(x: startCenter.x + (target.x - startCenter.x) * p, y: startCenter.y + (target.y - startCenter.y) * p)
            biggest = max(biggest, scale)
            farthest = max(farthest, view.center.y)
        }
        let overshoot = exp(-Double.pi * 0.4 / (1 - 0.16).squareRoot())  // 0.254 of the change at the first peak
        #expect(abs(biggest - (1.5 + 0.5 * overshoot)) < 0.01, "peak scale \(biggest)")
        #expect(farthest > target.y + 0.9 * overshoot * (target.y - startCenter.y), "the view passes its target: \(farthest)")
        #expect(abs(view.transform.a - 1.5) <= 0.5 * 0.001 + 1e-9 && hypot(view.center.x - 200, view.center.y - 300) < 0.001 * 400)
    }
}
