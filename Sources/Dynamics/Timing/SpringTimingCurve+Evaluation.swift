// SPDX-License-Identifier: Apache-2.0
import Foundation

extension SpringTimingCurve {
    /// The progress at `time` seconds after the start: 0 at the start, 1 at the end, past 1 while an
    /// underdamped spring overshoots. Closed forms, in double precision, with e = 1 − progress:
    /// - ζ < 1: e = exp(−ζωt) (cos ω_d t + (ζω − v₀)/ω_d sin ω_d t), ω_d = ω √(1 − ζ²);
    /// - ζ = 1: e = exp(−ωt) (1 + (ω − v₀) t);
    /// - ζ > 1: e = A exp(r₁t) + (1 − A) exp(r₂t), r₁,₂ = −ω (ζ ∓ √(ζ² − 1)), A = (−v₀ − r₂)/(r₁ − r₂).
    /// Negative times give 0.
    public func progress(at time: TimeInterval) -> Double {
        time <= 0 ? 0 : 1 - displacement(at: time).value
    }

    /// The velocity at `time` seconds, progress per second (the derivative of ``progress(at:)``).
    public func velocity(at time: TimeInterval) -> Double {
        time <= 0 ? initialVelocity : -displacement(at: time).rate
    }

    /// e = 1 − progress and its rate at time t.
    func displacement(at t: Double) -> (value: Double, rate: Double) {
        let w = naturalFrequency, z = dampingRatio, v = initialVelocity
        switch regime {
        case .underdamped:
            let wd = w * (1 - z * z).squareRoot(), c = (z * w - v) / wd, decay = exp(-z * w * t)
            let (s, co) = (sin(wd * t), cos(wd * t))
            return (decay * (co + c * s), decay * ((-z * w) * (co + c * s) + wd * (c * co - s)))
        case .criticallyDamped:
            let decay = exp(-w * t), a = w - v
            return (decay * (1 + a * t), decay * (a - w * (1 + a * t)))
        case .overdamped:
            let root = (z * z - 1).squareRoot(), r1 = -w * (z - root), r2 = -w * (z + root)
            let a = (-v - r2) / (r1 - r2), e1 = exp(r1 * t), e2 = exp(r2 * t)
            return (a * e1 + (1 - a) * e2, a * r1 * e1 + (1 - a) * r2 * e2)
        }
    }

    /// The time from which the progress stays within ``settlingTolerance`` of 1 for good, s (infinite
    /// for an undamped spring). UIKit's `CASpringAnimation.settlingDuration` estimates the same thing
    /// with a tolerance it does not document.
    public var settlingDuration: TimeInterval {
        let w = naturalFrequency, z = dampingRatio, v = initialVelocity, eps = Self.settlingTolerance
        guard z > 0 else { return .infinity }
        // A time after which |e| < eps for certain, from a bound on |e|.
        let bound: Double
        switch regime {
        case .underdamped:
            let c = (z * w - v) / (w * (1 - z * z).squareRoot())
            bound = log((1 + c * c).squareRoot() / eps) / (z * w)
        case .criticallyDamped:
            // exp(−ωt)(1 + |ω − v| t) falls for t past 1/ω: double until it is below eps.
            let a = abs(w - v)
            var t = 1 / w
            while exp(-w * t) * (1 + a * t) >= eps { t *= 2 }
            bound = t
        case .overdamped:
            let root = (z * z - 1).squareRoot(), r1 = -w * (z - root), r2 = -w * (z + root)
            let a = (-v - r2) / (r1 - r2)
            bound = log((abs(a) + abs(1 - a)) / eps) / -r1
        }
        guard bound > 0 else { return 0 }
        // The last time before the bound at which |e| reaches eps: scan back on a grid of at least 16
        // points per period of ω, then bisect the crossing.
        let steps = min(1_000_000, max(4096, Int((bound * w * 16 / (2 * .pi)).rounded(.up))))
        let dt = bound / Double(steps)
        var k = steps
        while k > 0 && abs(displacement(at: Double(k) * dt).value) < eps { k -= 1 }
        if k == steps { return bound }
        var (low, high) = (Double(k) * dt, Double(k + 1) * dt)
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if abs(displacement(at: mid).value) >= eps { low = mid } else { high = mid }
        }
        return high
    }
}
