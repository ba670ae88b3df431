// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A closed range of values (UIKit's `UIFloatRange`): radians for pin attachments, points for sliding ones.
public struct FloatRange: Hashable, Sendable {
    /// The lower end.
    public var minimum: CGFloat
    /// The upper end.
    public var maximum: CGFloat
    /// The range 0…0.
    public static let zero = FloatRange(minimum: 0, maximum: 0)
    /// The range −∞…+∞ (no limit).
    public static let infinite = FloatRange(minimum: -.infinity, maximum: .infinity)
    /// Creates a range.
    public init(minimum: CGFloat, maximum: CGFloat) {
        self.minimum = minimum
        self.maximum = maximum
    }
    /// Whether the range is −∞…+∞.
    public var isInfinite: Bool { minimum == -.infinity && maximum == .infinity }
}
