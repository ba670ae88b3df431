// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The damped spring behind UIKit's spring animations, as a timing curve: the progress from 0 to 1 of a
/// unit mass released at 0 toward 1, x″ = ω²(1 − x) − 2ζω x′, x(0) = 0, x′(0) = the initial velocity.
///
/// Make it as `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:)` takes it,
/// from a duration, a damping ratio and an initial velocity (``init(duration:dampingRatio:initialVelocity:)``),
/// or as `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)` and `CASpringAnimation` do
/// (``init(mass:stiffness:damping:initialVelocity:)``). Then read ``progress(at:)``, ``velocity(at:)`` and
/// ``settlingDuration``, or sample a million curves at once with
/// ``sample(_:interval:count:workers:simd:)``.
///
/// ```swift
/// // UIView.animate(withDuration: 0.6, delay: 0, usingSpringWithDamping: 0.4, initialSpringVelocity: 0)
/// let curve = SpringTimingCurve(duration: 0.6, dampingRatio: 0.4)
/// let scale = 1 + 0.5 * curve.progress(at: t)          // the view grows to 1.5×, overshooting on the way
/// ```
///
/// Every value is in seconds, radians per second and progress (0 at the start, 1 at the end) per second.
public struct SpringTimingCurve: Hashable, Sendable {
    /// How the spring returns to its end.
    public enum Regime: String, Hashable, Sendable {
        /// ζ < 1: it overshoots and oscillates with a decaying amplitude.
        case underdamped
        /// ζ = 1: the fastest return without overshoot (an initial velocity toward the end can still carry
        /// it past once).
        case criticallyDamped
        /// ζ > 1: it creeps to the end.
        case overdamped
    }

    /// The natural frequency ω, rad/s (√(stiffness / mass)).
    public let naturalFrequency: Double
    /// The damping ratio ζ (damping / (2 √(stiffness · mass))): 1 is critical.
    public let dampingRatio: Double
    /// The velocity at the start, progress per second: 1 covers the whole distance in a second (UIKit's
    /// `initialSpringVelocity`, and `CASpringAnimation.initialVelocity` for an animation from 0 to 1).
    public let initialVelocity: Double

    /// The tolerance of ``settlingDuration``: the progress stays within 0.001 of 1 after it.
    public static let settlingTolerance = 0.001

    /// A spring of natural frequency `naturalFrequency` (rad/s, > 0), damping ratio `dampingRatio`
    /// (0…1000; 0 never settles) and initial velocity `initialVelocity` (progress/s). Traps on a value out
    /// of range, naming it.
    public init(naturalFrequency: Double, dampingRatio: Double, initialVelocity: Double = 0) {
        require(naturalFrequency.isFinite && naturalFrequency > 0 && naturalFrequency <= 1e6,
                "SpringTimingCurve naturalFrequency must be in (0, 1e6] rad/s, got \(naturalFrequency)")
        require(dampingRatio.isFinite && dampingRatio >= 0 && dampingRatio <= 1000,
                "SpringTimingCurve dampingRatio must be in [0, 1000], got \(dampingRatio)")
        require(initialVelocity.isFinite && abs(initialVelocity) <= 1e9,
                "SpringTimingCurve initialVelocity must be finite and at most 1e9 per second, got \(initialVelocity)")
        self.naturalFrequency = naturalFrequency
        self.dampingRatio = dampingRatio
        self.initialVelocity = initialVelocity
    }

    /// The spring of `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)` and
    /// `CASpringAnimation`: mass (kg-like, > 0), stiffness (> 0) and damping (≥ 0) in consistent units,
    /// ω = √(stiffness / mass), ζ = damping / (2 √(stiffness · mass)). Traps on a value out of range.
    public init(mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0) {
        require(mass.isFinite && mass > 0, "SpringTimingCurve mass must be finite and > 0, got \(mass)")
        require(stiffness.isFinite && stiffness > 0, "SpringTimingCurve stiffness must be finite and > 0, got \(stiffness)")
        require(damping.isFinite && damping >= 0, "SpringTimingCurve damping must be finite and ≥ 0, got \(damping)")
        self.init(naturalFrequency: (stiffness / mass).squareRoot(),
                  dampingRatio: damping / (2 * (stiffness * mass).squareRoot()), initialVelocity: initialVelocity)
    }

    /// The spring of `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:)`:
    /// damping ratio `dampingRatio` (> 0; UIKit takes 0…1), initial velocity `initialVelocity` (progress/s),
    /// and the natural frequency for which the animation settles, within ``settlingTolerance``, at the end
    /// of `duration` seconds (UIKit's "total duration of the animation"). Traps on a value out of range.
    public init(duration: TimeInterval, dampingRatio: Double, initialVelocity: Double = 0) {
        require(duration.isFinite && duration > 0 && duration <= 1e4,
                "SpringTimingCurve duration must be in (0, 1e4] s, got \(duration)")
        require(dampingRatio.isFinite && dampingRatio > 0 && dampingRatio <= 1000,
                "SpringTimingCurve dampingRatio must be in (0, 1000] for a duration, got \(dampingRatio)")
        // The settling time of a spring of frequency ω falls as ω grows: bisect on log ω.
        var low = log(1e-6), high = log(1e6)
        for _ in 0..<56 {  // the bracket is 27.6 wide in log ω: 56 halvings reach below 1e-15
            let mid = (low + high) / 2
            let settling = SpringTimingCurve(naturalFrequency: exp(mid), dampingRatio: dampingRatio,
                                             initialVelocity: initialVelocity).settlingDuration
            if settling > duration { low = mid } else { high = mid }
        }
        self.init(naturalFrequency: exp(high), dampingRatio: dampingRatio, initialVelocity: initialVelocity)
    }

    /// Under-, critically or overdamped.
    public var regime: Regime {
        dampingRatio < 1 ? .underdamped : dampingRatio == 1 ? .criticallyDamped : .overdamped
    }
}
