// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A swept value: a JSON Pointer into the scene and the values it takes, given as a list, as a range with a
/// step, or as seeded random samples (the sweep file's `values`, `range` or `random`).
public struct SweepParameter: Hashable, Sendable {
    /// Where, as a JSON Pointer into the scene.
    public var pointer: String
    /// The values, in order.
    public var values: [SceneValue]

    /// Creates a parameter with its values.
    public init(pointer: String, values: [SceneValue]) {
        self.pointer = pointer
        self.values = values
    }

    /// `from`, `from + step`, … up to `to` (included when a whole number of steps reaches it within 10⁻⁹ of
    /// a step), each computed as `from + k · step` so that no error accumulates. Nil when `step` is not
    /// positive, the bounds are not finite, or there would be more than `limit` values.
    public static func range(from: Double, to: Double, step: Double, limit: Int = 1_000_000) -> [Double]? {
        guard from.isFinite, to.isFinite, step.isFinite, step > 0, to >= from else { return nil }
        let count = Int(((to - from) / step + 1e-9).rounded(.down)) + 1
        guard count <= limit else { return nil }
        return (0..<count).map { from + Double($0) * step }
    }

    /// `count` samples uniform in [min, max) (whole numbers in [min, max] when `integer`), from SplitMix64
    /// seeded with `seed`: the same on every machine.
    public static func random(count: Int, seed: UInt64, min: Double, max: Double, integer: Bool) -> [Double] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (0..<count).map { _ in
            if integer {
                let lo = min.rounded(.up), span = UInt64(max.rounded(.down) - lo) + 1
                return lo + Double(next() % span)
            }
            return min + Double(next() >> 11) * 0x1p-53 * (max - min)
        }
    }
}
