// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A continuous force or a one-time impulse on its items (UIKit's `UIPushBehavior`).
///
/// Magnitude is in UIKit newtons: a continuous push of magnitude 1 accelerates a 100 × 100 pt item of
/// density 1 (mass 1) at 100 pt/s²; an instantaneous push of magnitude P changes its velocity by
/// 100·P/m pt/s. A target offset (item coordinates, rotating with the item) makes the push turn the item.
open class PushBehavior: DynamicBehavior {
    /// How a push acts.
    public enum Mode: Hashable, Sendable {
        /// A constant force while ``PushBehavior/active``.
        case continuous
        /// One impulse on the next step after ``PushBehavior/active`` becomes true; then it turns false.
        case instantaneous
    }

    /// The mode chosen at creation.
    public let mode: Mode
    private var list: ItemList
    private var offsets: [ObjectIdentifier: Offset] = [:]

    /// A push on `items` in `mode`, with magnitude 0 and angle 0; active.
    public init(items: [any DynamicItem] = [], mode: Mode) {
        self.mode = mode
        list = ItemList(items)
        super.init()
    }

    /// The items, in the order added.
    public var items: [any DynamicItem] { list.items }
    /// Adds an item (once).
    public func addItem(_ item: any DynamicItem) { if list.insert(item) { itemsDidChange() } }
    /// Removes an item and its target offset.
    public func removeItem(_ item: any DynamicItem) {
        if list.remove(item) {
            offsets[ObjectIdentifier(item)] = nil
            itemsDidChange()
        }
    }

    /// Whether the push acts. An instantaneous push fires on the next step and then sets this to false.
    public var active: Bool {
        get { isActive }
        set {
            isActive = newValue
            didChange()
        }
    }
    private var isActive = true

    private var storedAngle: CGFloat = 0
    private var storedMagnitude: CGFloat = 0

    /// The force (N) or impulse (N·s) vector; default (0, 0). Traps when a component is not finite or its
    /// length is beyond 10¹² (when it is set, not at the next step).
    public var pushDirection: CGVector {
        get { CGVector(dx: storedMagnitude * cos(storedAngle), dy: storedMagnitude * sin(storedAngle)) }
        set {
            require(newValue.dx.isFinite && newValue.dy.isFinite && hypot(newValue.dx, newValue.dy) <= 1e12,
                    "PushBehavior.pushDirection must be finite and at most 1e12 long, got \(newValue)")
            storedMagnitude = hypot(newValue.dx, newValue.dy)
            if storedMagnitude > 0 { storedAngle = atan2(newValue.dy, newValue.dx) }
            didChange()
        }
    }

    /// The direction's angle, radians (0 = +x, π/2 = down); kept while the magnitude is 0.
    public var angle: CGFloat {
        get { storedAngle }
        set { setAngle(newValue, magnitude: storedMagnitude) }
    }

    /// The direction's length, N (continuous) or N·s (instantaneous).
    public var magnitude: CGFloat {
        get { storedMagnitude }
        set { setAngle(storedAngle, magnitude: newValue) }
    }

    /// Sets angle (radians) and magnitude together. A negative magnitude pushes the opposite way.
    public func setAngle(_ angle: CGFloat, magnitude: CGFloat) {
        require(angle.isFinite && magnitude.isFinite && abs(magnitude) <= 1e12,
                "PushBehavior angle must be finite and magnitude within ±1e12, got \(angle), \(magnitude)")
        (storedAngle, storedMagnitude) = magnitude < 0 ? (angle + .pi, -magnitude) : (angle, magnitude)
        didChange()
    }

    /// Applies the push to `item` at `offset` from its centre (pt, item coordinates) instead of the centre.
    public func setTargetOffsetFromCenter(_ offset: Offset, for item: any DynamicItem) {
        require(offset.horizontal.isFinite && offset.vertical.isFinite && abs(offset.horizontal) <= 1e7
                    && abs(offset.vertical) <= 1e7,
                "PushBehavior target offset must be finite and within ±1e7 pt, got \(offset)")
        offsets[ObjectIdentifier(item)] = offset
        didChange()
    }

    /// The target offset of `item` (pt, item coordinates; zero by default).
    public func targetOffsetFromCenter(for item: any DynamicItem) -> Offset {
        offsets[ObjectIdentifier(item)] ?? .zero
    }

    /// Called by the animator after it applied an instantaneous push.
    func didFire() { isActive = false }

    override var directItems: [any DynamicItem] { list.items }
}
