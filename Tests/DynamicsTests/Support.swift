// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// A 100 × 100 pt body (mass 1 at density 1) at `center`.
func square(at center: CGPoint = .zero, size: CGSize = CGSize(width: 100, height: 100)) -> DynamicBody {
    DynamicBody(center: center, size: size)
}

/// A single-threaded animator with the default rates (60 steps/s, 4 substeps).
func makeAnimator(workers: Int = 1) -> DynamicAnimator {
    var configuration = DynamicsConfiguration()
    configuration.workerCount = workers
    return DynamicAnimator(configuration: configuration)
}

/// Records delegate calls in order.
final class DelegateLog: DynamicAnimatorDelegate {
    var events: [String] = []
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { events.append("resume") }
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { events.append("pause") }
}

/// A closed path through `points`, in order.
func closedPath(_ points: [CGPoint]) -> BezierPath {
    let path = BezierPath()
    path.move(to: points[0])
    for p in points.dropFirst() { path.addLine(to: p) }
    path.close()
    return path
}

func relativeError(_ value: Double, _ expected: Double) -> Double { abs(value - expected) / abs(expected) }

/// A funnel as a closed path: slopes from (20, 50) and (300, 50) down to a 30 pt stem from y = 400 to 560.
func funnelPath() -> BezierPath {
    let funnel = [(20, 50), (145, 400), (145, 560), (175, 560), (175, 400), (300, 50)]
    let path = BezierPath()
    path.move(to: CGPoint(x: funnel[0].0, y: funnel[0].1))
    for (x, y) in funnel.dropFirst() { path.addLine(to: CGPoint(x: x, y: y)) }
    path.close()
    return path
}

/// A seeded SplitMix64 generator for reproducible test scenes.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A uniform value in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// A batch world without rest detection (items never rest), for laws measured over time.
func restlessWorld(workers: Int = 1, simd: SIMDLevel = .automatic) throws -> DynamicWorld {
    var c = DynamicsConfiguration()
    c.workerCount = workers
    c.simd = simd
    c.restDetection = false
    return try DynamicWorld(configuration: c)
}
