// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel
import Foundation

/// The kernel's bulk sampler of spring timing curves (spring_curve.c), for ``SpringTimingCurve``.
enum KernelSprings {
    /// Samples `curves` into `out` (curves.count × count floats, one row per sample); nil, or the kernel's
    /// refusal as an error naming the field and the curve.
    static func sample(_ curves: [SpringTimingCurve], interval: TimeInterval, count: Int, workers: Int, simd: SIMDLevel,
                       into out: UnsafeMutableBufferPointer<Float>) -> DynamicsError?
    {
        let omega = curves.map { Float($0.naturalFrequency) }, zeta = curves.map { Float($0.dampingRatio) }
        let velocity = curves.map { Float($0.initialVelocity) }
        var error = dkError()
        let result = omega.withUnsafeBufferPointer { w in
            zeta.withUnsafeBufferPointer { z in
                velocity.withUnsafeBufferPointer { v in
                    var sampling = dkSpringSampling(
                        omega: w.baseAddress, zeta: z.baseAddress, velocity: v.baseAddress, count: Int32(curves.count),
                        interval: Float(interval), samples: Int32(count), out: out.baseAddress, simdLimit: simd.kernelLimit,
                        workerCount: Int32(workers), runTasks: kernelRunTasks, hostContext: nil)
                    return dkSpringCurves_Sample(&sampling, &error)
                }
            }
        }
        guard result != dkResultOK else { return nil }
        let field = error.field.map { String(cString: $0) } ?? "curves"
        return .invalidValue(field: field, value: error.value, index: error.index >= 0 ? Int(error.index) : nil)
    }
}
