// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Material and motion properties for its items (UIKit's `UIDynamicItemBehavior`).
///
/// When several item behaviours hold one item, the last one in depth-first order of the animator's
/// behaviour tree wins; removing it restores the previous one's values or the defaults.
/// Setting a property to a value outside its range traps with a message naming it.
open class DynamicItemBehavior: DynamicBehavior {
    private var list: ItemList
    /// Velocity added before the items joined an animator, applied when they do.
    var pendingVelocities: [ObjectIdentifier: (linear: CGPoint, angular: CGFloat)] = [:]

    /// An item behaviour with default values for `items`.
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

    /// Restitution of collisions, 0…1 (default 0).
    public var elasticity: CGFloat = 0 { didSet { check(elasticity, "elasticity", 0...1) } }
    /// Coulomb friction coefficient, ≥ 0 (default 0).
    public var friction: CGFloat = 0 { didSet { check(friction, "friction", 0...) } }
    /// Density, 10⁻⁶…10⁶ (default 1): a 100 × 100 pt item of density 1 has mass 1. The batch world accepts the
    /// same range (``ItemDescription/density``).
    public var density: CGFloat = 1 {
        didSet { check(density, "density", 1e-6...1e6) }
    }
    /// Linear damping c ≥ 0 in 1/s: v ← v / (1 + h·c) per substep (default 0).
    public var resistance: CGFloat = 0 { didSet { check(resistance, "resistance", 0...) } }
    /// Angular damping ≥ 0 in 1/s, same law for ω (default 0).
    public var angularResistance: CGFloat = 0 { didSet { check(angularResistance, "angularResistance", 0...) } }
    /// Charge, for electric and magnetic fields (default 0).
    public var charge: CGFloat = 0 { didSet { check(charge, "charge", (-CGFloat.greatestFiniteMagnitude)...) } }
    /// Anchored items have infinite mass, never move, and still collide (default false).
    public var isAnchored = false { didSet { didChange() } }
    /// Kinematic items (beyond UIKit) move only at the velocity given them (``addLinearVelocity(_:for:)``,
    /// ``addAngularVelocity(_:for:)``): gravity, pushes, fields, resistance, snaps, attachments and collisions
    /// leave it alone, and they push the items they meet without being pushed back (default false). See
    /// ``ItemDescription/isKinematic``. Setting it on an anchored behaviour traps when the animator next steps.
    public var isKinematic = false { didSet { didChange() } }
    /// When false the items keep their angle (default true).
    public var allowsRotation = true { didSet { didChange() } }

    /// Adds `velocity` (pt/s) to `item`'s linear velocity.
    public func addLinearVelocity(_ velocity: CGPoint, for item: any DynamicItem) {
        require(velocity.x.isFinite && velocity.y.isFinite, "linear velocity must be finite, got \(velocity)")
        require(list.contains(item), "addLinearVelocity: the item is not in this DynamicItemBehavior")
        if let animator = dynamicAnimator, animator.addVelocity(velocity, angular: 0, to: item) { return }
        let old = pendingVelocities[ObjectIdentifier(item)] ?? (.zero, 0)
        pendingVelocities[ObjectIdentifier(item)] = (CGPoint(x: old.linear.x + velocity.x, y: old.linear.y + velocity.y),
                                                     old.angular)
    }

    /// `item`'s linear velocity, pt/s (zero when it is not in an animator yet, plus any velocity added).
    public func linearVelocity(for item: any DynamicItem) -> CGPoint {
        if let v = dynamicAnimator?.velocity(of: item) { return CGPoint(x: v.dx, y: v.dy) }
        return pendingVelocities[ObjectIdentifier(item)]?.linear ?? .zero
    }

    /// Adds `velocity` (rad/s) to `item`'s angular velocity.
    public func addAngularVelocity(_ velocity: CGFloat, for item: any DynamicItem) {
        require(velocity.isFinite, "angular velocity must be finite, got \(velocity)")
        require(list.contains(item), "addAngularVelocity: the item is not in this DynamicItemBehavior")
        if let animator = dynamicAnimator, animator.addVelocity(.zero, angular: velocity, to: item) { return }
        let old = pendingVelocities[ObjectIdentifier(item)] ?? (.zero, 0)
        pendingVelocities[ObjectIdentifier(item)] = (old.linear, old.angular + velocity)
    }

    /// `item`'s angular velocity, rad/s.
    public func angularVelocity(for item: any DynamicItem) -> CGFloat {
        if let w = dynamicAnimator?.angularVelocity(of: item) { return w }
        return pendingVelocities[ObjectIdentifier(item)]?.angular ?? 0
    }

    private func check(_ value: CGFloat, _ name: String, _ range: some RangeExpression<CGFloat>) {
        // The kernel stores Float: the value must stay finite (and non-zero where the range excludes 0).
        let stored = CGFloat(Float(value))
        require(value.isFinite && stored.isFinite && range.contains(value) && range.contains(stored),
                     "DynamicItemBehavior.\(name) is out of range: \(value)")
        didChange()
    }

    override var directItems: [any DynamicItem] { list.items }
}
