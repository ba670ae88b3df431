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

func relativeError(_ value: Double, _ expected: Double) -> Double { abs(value - expected) / abs(expected) }
