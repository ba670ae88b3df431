// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Constant acceleration for its items (UIKit's `UIGravityBehavior`).
///
/// A `gravityDirection` of length 1 is 1000 pt/s², the same for every item whatever its mass. The
/// default direction is (0, 1): down, angle π/2, magnitude 1. Setting the magnitude to 0 sets the angle to 0.
open class GravityBehavior: DynamicBehavior {
    private var list: ItemList

    /// A gravity behaviour acting on `items`.
    public init(items: [any DynamicItem] = []) {
        list = ItemList(items)
        super.init()
    }

    /// The items, in the order added.
    public var items: [any DynamicItem] { list.items }
    /// Adds an item (once).
    public func addItem(_ item: any DynamicItem) { if list.insert(item) { itemsDidChange() } }
    /// Removes an item.
    public func removeItem(_ item: any DynamicItem) { if list.remove(item) { itemsDidChange() } }

    /// The acceleration vector; length 1 = 1000 pt/s². Traps when a component is not finite or beyond ±10⁶
    /// (10⁹ pt/s²), when it is set, not at the next step.
    public var gravityDirection = CGVector(dx: 0, dy: 1) {
        didSet {
            require(gravityDirection.dx.isFinite && gravityDirection.dy.isFinite && abs(gravityDirection.dx) <= 1e6
                        && abs(gravityDirection.dy) <= 1e6,
                    "GravityBehavior.gravityDirection must be finite and within ±1e6, got \(gravityDirection)")
            didChange()
        }
    }

    /// The direction's angle, radians (0 = +x, π/2 = down).
    public var angle: CGFloat {
        get { magnitude == 0 ? 0 : atan2(gravityDirection.dy, gravityDirection.dx) }
        set { setAngle(newValue, magnitude: magnitude) }
    }

    /// The direction's length (1 = 1000 pt/s²).
    public var magnitude: CGFloat {
        get { hypot(gravityDirection.dx, gravityDirection.dy) }
        set { setAngle(angle, magnitude: newValue) }
    }

    /// Sets angle (radians) and magnitude (1 = 1000 pt/s²) together.
    public func setAngle(_ angle: CGFloat, magnitude: CGFloat) {
        require(angle.isFinite && magnitude.isFinite,
                     "GravityBehavior angle and magnitude must be finite, got \(angle), \(magnitude)")
        let a = magnitude == 0 ? 0 : angle
        gravityDirection = CGVector(dx: magnitude * cos(a), dy: magnitude * sin(a))
    }

    override var directItems: [any DynamicItem] { list.items }
}
