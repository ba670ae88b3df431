// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A force field over its items (UIKit's `UIFieldBehavior`), with the laws, units and defaults of
/// <doc:UnitsAndSemantics> (see ``FieldKind``).
///
/// A field acts only on the items added to it, and only while an item's centre c satisfies
/// `region.contains(c − position)`. Every property can change while the animator runs; the change
/// takes effect on the next step.
///
/// ```swift
/// let spring = FieldBehavior.springField()
/// spring.position = CGPoint(x: 160, y: 120)
/// spring.region = Region(size: CGSize(width: 320, height: 240))
/// spring.addItem(card)
/// animator.addBehavior(spring)
/// ```
///
/// The built-in kinds run in the kernel: a million items under dozens of fields step in parallel with
/// SIMD. A custom field (``field(evaluationBlock:)``) calls its block once per item per step on the thread
/// that steps the animator, which costs a Swift call and a few array accesses per item; prefer a
/// built-in kind, or a sum of them, when speed matters.
public final class FieldBehavior: DynamicBehavior {
    /// The block of a custom field: (field, item centre in reference coordinates (pt), velocity (pt/s),
    /// mass, charge, step duration (s)) → force (UIKit newtons: a = 100·F/m).
    public typealias EvaluationBlock = (FieldBehavior, CGPoint, CGVector, CGFloat, CGFloat, TimeInterval) -> CGVector

    private var list = ItemList([])
    /// The built-in law and its properties (for a custom field, `kind` is unused).
    private(set) var fieldDescription: FieldDescription
    /// The custom field's block, or nil for a built-in kind.
    let evaluationBlock: EvaluationBlock?

    private init(_ kind: FieldKind, block: EvaluationBlock? = nil) {
        fieldDescription = FieldDescription(kind: kind)
        evaluationBlock = block
        super.init()
    }

    private static func make(_ kind: FieldKind, _ configure: (FieldBehavior) -> Void = { _ in }) -> FieldBehavior {
        let field = FieldBehavior(kind)
        configure(field)
        return field
    }

    // MARK: factories

    /// Uniform acceleration 1000 · strength · `direction` pt/s² (mass-independent), like ``GravityBehavior``.
    public static func linearGravityField(direction: CGVector) -> FieldBehavior {
        make(.linearGravity) { $0.direction = direction }
    }
    /// Acceleration 1000 · strength pt/s² toward `position` (times the attenuation).
    public static func radialGravityField(position: CGPoint) -> FieldBehavior {
        make(.radialGravity) { $0.position = position }
    }
    /// A spring toward `position`: F = −strength · (c − position) N per pt, so a = −100 · strength · d / m.
    public static func springField() -> FieldBehavior { make(.spring) }
    /// Resistance F = −strength · v / 100 N: velocity decays at strength / m per second.
    public static func dragField() -> FieldBehavior { make(.drag) }
    /// Sets the velocity of items in the region to strength · `direction` pt/s.
    public static func velocityField(direction: CGVector) -> FieldBehavior {
        make(.velocity) { $0.direction = direction }
    }
    /// Seeded smooth noise: a = 1000 · strength · N(c, t) pt/s², mass ignored. `smoothness` 0…1 (1
    /// smoothest), `animationSpeed` in Hz (0 frozen).
    public static func noiseField(smoothness: CGFloat, animationSpeed: CGFloat) -> FieldBehavior {
        make(.noise) {
            $0.smoothness = smoothness
            $0.animationSpeed = animationSpeed
        }
    }
    /// Noise scaled by speed: a = strength · |v| · N(c, t).
    public static func turbulenceField(smoothness: CGFloat, animationSpeed: CGFloat) -> FieldBehavior {
        make(.turbulence) {
            $0.smoothness = smoothness
            $0.animationSpeed = animationSpeed
        }
    }
    /// F = q · strength N away from `position`: like charges repel for positive strength.
    public static func electricField() -> FieldBehavior { make(.electric) }
    /// A uniform magnetic field: F = q · strength · (v_y, −v_x) / 100 N, circling at ω = q · strength / m.
    public static func magneticField() -> FieldBehavior { make(.magnetic) }
    /// Tangential acceleration 1000 · strength pt/s², visually counter-clockwise for positive strength.
    public static func vortexField() -> FieldBehavior { make(.vortex) }
    /// A field whose force is computed by `evaluationBlock`, once per item inside the region per step, on
    /// the thread that steps the animator. The force holds for the whole step. Slower than every
    /// built-in kind (a Swift call per item per step); use it for laws the built-in kinds cannot express.
    public static func field(evaluationBlock: @escaping EvaluationBlock) -> FieldBehavior {
        FieldBehavior(.linearGravity, block: evaluationBlock)
    }

    // MARK: items

    /// The items, in the order added.
    public var items: [any DynamicItem] { list.items }
    /// Adds an item (once).
    public func addItem(_ item: any DynamicItem) { if list.insert(item) { itemsDidChange() } }
    /// Removes an item.
    public func removeItem(_ item: any DynamicItem) { if list.remove(item) { itemsDidChange() } }
    override var directItems: [any DynamicItem] { list.items }

    // MARK: properties

    /// The field's origin, pt (reference coordinates; default (0, 0)).
    public var position: CGPoint {
        get { fieldDescription.position }
        set { update(\.position, newValue, "position", Float(newValue.x).isFinite && Float(newValue.y).isFinite) }
    }
    /// Where the field acts, relative to ``position`` (default ``Region/infinite``).
    public var region: Region {
        get { fieldDescription.region }
        set { update(\.region, newValue, "region", true) }
    }
    /// Scale of the law (default 1; negative reverses it). Traps when not finite.
    public var strength: CGFloat {
        get { fieldDescription.strength }
        set { update(\.strength, newValue, "strength", Float(newValue).isFinite) }
    }
    /// Distance attenuation exponent, ≥ 0: forces scale by max(r, minimumRadius)^(−falloff) (default 0).
    public var falloff: CGFloat {
        get { fieldDescription.falloff }
        set { update(\.falloff, newValue, "falloff", Float(newValue).isFinite && newValue >= 0) }
    }
    /// The smallest distance the attenuation uses, pt, > 0 (default 0.001).
    public var minimumRadius: CGFloat {
        get { fieldDescription.minimumRadius }
        set { update(\.minimumRadius, newValue, "minimumRadius", Float(newValue).isFinite && Float(newValue) > 0) }
    }
    /// Linear gravity and velocity fields: the direction; its length scales the field.
    public var direction: CGVector {
        get { fieldDescription.direction }
        set { update(\.direction, newValue, "direction", Float(newValue.dx).isFinite && Float(newValue.dy).isFinite) }
    }
    /// Noise and turbulence: 0…1, 1 smoothest (wavelength 10 pt · 100^smoothness).
    public var smoothness: CGFloat {
        get { fieldDescription.smoothness }
        set { update(\.smoothness, newValue, "smoothness", (0...1).contains(newValue)) }
    }
    /// Noise and turbulence: Hz, ≥ 0 (0 frozen).
    public var animationSpeed: CGFloat {
        get { fieldDescription.animationSpeed }
        set { update(\.animationSpeed, newValue, "animationSpeed", Float(newValue).isFinite && newValue >= 0) }
    }

    private func update<T>(_ path: WritableKeyPath<FieldDescription, T>, _ value: T, _ name: String, _ valid: Bool) {
        require(valid, "FieldBehavior.\(name) is out of range: \(value)")
        fieldDescription[keyPath: path] = value
        didChange()
    }
}
