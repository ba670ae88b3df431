// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Pulls an item to a point and its rotation to the nearest whole turn (UIKit's `UISnapBehavior`).
///
/// A spring of 2.5 Hz with damping ratio ζ = 0.05 + 0.95 · `damping` acts on position and rotation,
/// independent of mass. Its motion has the damped oscillator's frequency, decay rate and overshoot
/// (e^{−ζπ/√(1−ζ²)} of the distance) at any substep count. Changing ``snapPoint`` puts the item in
/// motion again.
open class SnapBehavior: DynamicBehavior {
    /// The spring frequency, Hz (<doc:UnitsAndSemantics>).
    public static let frequency: CGFloat = 2.5
    /// The item.
    public let item: any DynamicItem

    /// Snaps `item` to `point` (pt).
    public init(item: any DynamicItem, snapTo point: CGPoint) {
        require(point.x.isFinite && point.y.isFinite, "SnapBehavior snap point must be finite, got \(point)")
        self.item = item
        snapPoint = point
        super.init()
    }

    /// The target, pt. Traps on NaN or infinite coordinates.
    public var snapPoint: CGPoint {
        didSet {
            require(snapPoint.x.isFinite && snapPoint.y.isFinite,
                         "SnapBehavior.snapPoint must be finite, got \(snapPoint)")
            didChange()
        }
    }

    /// Oscillation damping, 0…1 (default 0.5); 1 is the least oscillation. Traps outside 0…1.
    public var damping: CGFloat = 0.5 {
        didSet {
            require((0...1).contains(damping), "SnapBehavior.damping must be in 0…1, got \(damping)")
            didChange()
        }
    }

    /// The damping ratio ζ = 0.05 + 0.95 · damping.
    public var dampingRatio: CGFloat { 0.05 + 0.95 * damping }

    override var directItems: [any DynamicItem] { [item] }
}
