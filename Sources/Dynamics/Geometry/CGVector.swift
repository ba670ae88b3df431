// SPDX-License-Identifier: Apache-2.0
import Foundation

#if !canImport(CoreGraphics)
/// A two-dimensional vector, as on Apple platforms (Foundation on Linux lacks it).
///
/// Dynamics uses vectors for directions and accelerations; the unit depends on the property
/// (a unitless direction, pt/s² or UIKit newtons). On Apple platforms CoreGraphics' type is used.
public struct CGVector: Hashable, Sendable, CustomStringConvertible {
    /// The x component (+x points right).
    public var dx: CGFloat
    /// The y component (+y points down).
    public var dy: CGFloat
    /// The vector (0, 0).
    public static let zero = CGVector(dx: 0, dy: 0)
    /// Creates a vector from its components.
    public init(dx: CGFloat, dy: CGFloat) {
        self.dx = dx
        self.dy = dy
    }
    /// Creates a vector from `Double` components.
    public init(dx: Double, dy: Double) {
        self.dx = CGFloat(dx)
        self.dy = CGFloat(dy)
    }
    /// Creates a vector from `Int` components.
    public init(dx: Int, dy: Int) {
        self.dx = CGFloat(dx)
        self.dy = CGFloat(dy)
    }
    /// Creates the zero vector.
    public init() { self.init(dx: 0, dy: 0) }
    /// A textual form, `(dx, dy)`.
    public var description: String { "(\(dx), \(dy))" }
}
#endif
