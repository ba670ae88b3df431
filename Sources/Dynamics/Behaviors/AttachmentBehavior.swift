// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Links an item to an anchor point or to another item (UIKit's `UIAttachmentBehavior`).
///
/// The plain initialisers make a rod between two anchors (an item's centre plus an offset in the item's
/// own, rotating coordinates, or a point of the reference frame): rigid by default, a spring of
/// ``frequency`` Hz with damping ratio ``damping`` when ``frequency`` > 0. ``length`` starts as the
/// anchors' distance at creation. The factories make the iOS 9 kinds: a rope
/// (``limitAttachment(with:offsetFromCenter:attachedTo:offsetFromCenter:)``), a weld
/// (``fixedAttachment(with:attachedTo:attachmentAnchor:)``), a pin
/// (``pinAttachment(with:attachedTo:attachmentAnchor:)``) and sliders
/// (``slidingAttachment(with:attachedTo:attachmentAnchor:axisOfTranslation:)``). All are solved with the
/// contacts (see <doc:UnitsAndSemantics>); rigid rods, welds and pins that form an open chain (each item in at most
/// two, no loop, the linked items not touching each other) are solved exactly, so a chain of 1 000 links
/// stays within 1 % of its length.
///
/// ```swift
/// // Drag a view by its corner: move the anchor every step, as a pan gesture does.
/// let drag = AttachmentBehavior(item: card, offsetFromCenter: Offset(horizontal: 40, vertical: 20),
///                               attachedToAnchor: touch)
/// animator.addBehavior(drag)
/// drag.anchorPoint = newTouch
/// ```
open class AttachmentBehavior: DynamicBehavior {
    /// What the first item is attached to.
    public enum AttachmentType: Sendable {
        /// Another item.
        case items
        /// A point of the reference frame (``anchorPoint``).
        case anchor
    }

    enum Kind {
        case rod, rope, weld, pin
        case slider(axis: CGVector)
    }

    /// The attached items: one for an anchor attachment, two otherwise.
    public let items: [any DynamicItem]
    /// Whether the first item is attached to an item or to ``anchorPoint``.
    public let attachedBehaviorType: AttachmentType
    let kind: Kind
    /// Anchors in the items' own coordinates (offsets from their centres, pt).
    let offsets: [Offset]
    /// The anchor of pins, welds and sliders at creation (reference coordinates, pt).
    let sharedAnchor: CGPoint?
    /// Item attachments: the anchor on the second item, in its own coordinates (pt).
    private let secondAnchor: Offset
    var needsUpdate = false

    init(items: [any DynamicItem], offsets: [Offset], anchor: CGPoint?, sharedAnchor: CGPoint?, kind: Kind) {
        for p in [anchor, sharedAnchor].compactMap({ $0 }) {
            require(p.x.isFinite && p.y.isFinite, "AttachmentBehavior anchor must be finite, got \(p)")
        }
        for o in offsets {
            require(o.horizontal.isFinite && o.vertical.isFinite,
                         "AttachmentBehavior offsetFromCenter must be finite, got \(o)")
        }
        require(items.count == 1 || items[0] !== items[1], "AttachmentBehavior cannot attach an item to itself")
        self.items = items
        self.offsets = offsets
        self.kind = kind
        self.sharedAnchor = sharedAnchor
        attachedBehaviorType = items.count == 1 ? .anchor : .items
        let a = anchor ?? sharedAnchor ?? Self.point(of: items[1], offsets[1])
        anchor_ = a
        secondAnchor = items.count == 1 ? .zero : (sharedAnchor.map { Self.offset(of: $0, in: items[1]) } ?? offsets[1])
        let b = Self.point(of: items[0], offsets[0])
        storedLength = hypot(b.x - a.x, b.y - a.y)
        super.init()
    }

    /// A rod from `item`'s centre to `point` (reference coordinates, pt).
    public convenience init(item: any DynamicItem, attachedToAnchor point: CGPoint) {
        self.init(item: item, offsetFromCenter: .zero, attachedToAnchor: point)
    }

    /// A rod from a point of `item` (`offset` from its centre, in its own coordinates, pt) to `point`.
    public convenience init(item: any DynamicItem, offsetFromCenter offset: Offset, attachedToAnchor point: CGPoint) {
        self.init(items: [item], offsets: [offset], anchor: point, sharedAnchor: nil, kind: .rod)
    }

    /// A rod between the centres of two items.
    public convenience init(item item1: any DynamicItem, attachedTo item2: any DynamicItem) {
        self.init(item: item1, offsetFromCenter: .zero, attachedTo: item2, offsetFromCenter: .zero)
    }

    /// A rod between a point of each item (offsets from their centres, in their own coordinates, pt).
    public convenience init(item item1: any DynamicItem, offsetFromCenter offset1: Offset,
                            attachedTo item2: any DynamicItem, offsetFromCenter offset2: Offset) {
        self.init(items: [item1, item2], offsets: [offset1, offset2], anchor: nil, sharedAnchor: nil, kind: .rod)
    }

    /// Two items that slide relative to each other along `axis` (reference coordinates; its length is
    /// ignored) without turning relative to each other; ``attachmentRange`` limits the travel in points.
    public static func slidingAttachment(with item1: any DynamicItem, attachedTo item2: any DynamicItem,
                                         attachmentAnchor point: CGPoint, axisOfTranslation axis: CGVector)
        -> AttachmentBehavior
    {
        require(axis.dx.isFinite && axis.dy.isFinite && (axis.dx != 0 || axis.dy != 0),
                     "slidingAttachment axisOfTranslation must be a finite non-zero vector, got \(axis)")
        return AttachmentBehavior(items: [item1, item2], offsets: [.zero, .zero], anchor: nil, sharedAnchor: point,
                                  kind: .slider(axis: axis))
    }

    /// An item that slides along `axis` through `point` (reference coordinates) without turning.
    public static func slidingAttachment(with item: any DynamicItem, attachmentAnchor point: CGPoint,
                                         axisOfTranslation axis: CGVector) -> AttachmentBehavior
    {
        require(axis.dx.isFinite && axis.dy.isFinite && (axis.dx != 0 || axis.dy != 0),
                     "slidingAttachment axisOfTranslation must be a finite non-zero vector, got \(axis)")
        return AttachmentBehavior(items: [item], offsets: [.zero], anchor: point, sharedAnchor: point,
                                  kind: .slider(axis: axis))
    }

    /// A rope between a point of each item: they may come closer, never farther apart than ``length``.
    public static func limitAttachment(with item1: any DynamicItem, offsetFromCenter offset1: Offset,
                                       attachedTo item2: any DynamicItem, offsetFromCenter offset2: Offset)
        -> AttachmentBehavior
    {
        AttachmentBehavior(items: [item1, item2], offsets: [offset1, offset2], anchor: nil, sharedAnchor: nil,
                           kind: .rope)
    }

    /// A weld at `point` (reference coordinates): the items keep their relative position and rotation.
    public static func fixedAttachment(with item1: any DynamicItem, attachedTo item2: any DynamicItem,
                                       attachmentAnchor point: CGPoint) -> AttachmentBehavior
    {
        AttachmentBehavior(items: [item1, item2], offsets: [.zero, .zero], anchor: nil, sharedAnchor: point, kind: .weld)
    }

    /// A pin at `point` (reference coordinates): both items turn about it, at their radius at creation,
    /// within ``attachmentRange`` (rad), resisted by ``frictionTorque``.
    public static func pinAttachment(with item1: any DynamicItem, attachedTo item2: any DynamicItem,
                                     attachmentAnchor point: CGPoint) -> AttachmentBehavior
    {
        AttachmentBehavior(items: [item1, item2], offsets: [.zero, .zero], anchor: nil, sharedAnchor: point, kind: .pin)
    }

    private var anchor_: CGPoint

    /// The anchor, pt (reference coordinates). For an ``AttachmentType/anchor`` attachment, set it to move
    /// the anchor (the item follows on the next step). For an item attachment it is the anchor on the
    /// second item where that item is now; setting it traps.
    public var anchorPoint: CGPoint {
        get { attachedBehaviorType == .anchor ? anchor_ : Self.point(of: items[1], secondAnchor) }
        set {
            require(attachedBehaviorType == .anchor, "anchorPoint can only be set on an attachment to an anchor")
            require(newValue.x.isFinite && newValue.y.isFinite,
                         "AttachmentBehavior.anchorPoint must be finite, got \(newValue)")
            anchor_ = newValue
            changed()
        }
    }

    /// The distance the attachment holds (rods) or allows at most (ropes), pt. Unless set before, it is the
    /// distance between the attachment points when the behaviour is first added to an animator (until then,
    /// their distance at creation). So the usual create-and-add keeps the distance at creation, and UIKit's
    /// lazy pattern (create with a placeholder anchor, set ``anchorPoint`` to the touch, then add) holds
    /// the item at the touch's distance. Traps when negative or not finite.
    public var length: CGFloat {
        get { storedLength }
        set {
            require(newValue.isFinite && newValue >= 0, "AttachmentBehavior.length must be finite and ≥ 0, got \(newValue)")
            storedLength = newValue
            lengthIsFixed = true
            changed()
        }
    }

    private var storedLength: CGFloat
    /// Set explicitly, or taken when the behaviour was first added to an animator.
    private var lengthIsFixed = false

    /// The distance between the attachment points now, pt.
    var currentDistance: CGFloat {
        let b = Self.point(of: items[0], offsets[0])
        let a = attachedBehaviorType == .anchor ? anchor_ : Self.point(of: items[1], secondAnchor)
        return hypot(b.x - a.x, b.y - a.y)
    }

    /// Called when the behaviour joins an animator (``DynamicAnimator/addBehavior(_:)`` or a parent already in
    /// one): an unset length becomes the current distance, once.
    func fixLengthOnFirstAdd() {
        guard !lengthIsFixed else { return }
        storedLength = currentDistance
        lengthIsFixed = true
    }

    /// Spring frequency, Hz (default 0: rigid). Traps when negative or not finite.
    public var frequency: CGFloat = 0 {
        didSet {
            require(frequency.isFinite && frequency >= 0, "AttachmentBehavior.frequency must be ≥ 0, got \(frequency)")
            changed()
        }
    }

    /// Damping ratio of the spring (1 = critical; default 0). Traps when negative or not finite.
    public var damping: CGFloat = 0 {
        didSet {
            require(damping.isFinite && damping >= 0, "AttachmentBehavior.damping must be ≥ 0, got \(damping)")
            changed()
        }
    }

    /// Pins: the largest torque resisting relative rotation, N·pt (angular acceleration 100 · τ / I).
    /// Traps when negative or not finite.
    public var frictionTorque: CGFloat = 0 {
        didSet {
            require(frictionTorque.isFinite && frictionTorque >= 0,
                         "AttachmentBehavior.frictionTorque must be ≥ 0, got \(frictionTorque)")
            changed()
        }
    }

    /// Beyond UIKit. Pins: the relative angular velocity a motor drives the pin toward, rad/s (the attached
    /// item's angular velocity minus the other item's; positive is counterclockwise in a y-up world), with at
    /// most ``maximumMotorTorque`` (``AttachmentMotor``). Sliders: the speed along the axis it drives the item
    /// toward, pt/s, with at most ``maximumMotorForce`` (``SliderMotor``). nil, the default, has no motor.
    /// Traps when not finite; has no effect on other kinds.
    public var motorSpeed: CGFloat? {
        didSet {
            require(motorSpeed.map(\.isFinite) ?? true, "AttachmentBehavior.motorSpeed must be finite, got \(motorSpeed!)")
            changed()
        }
    }

    /// Beyond UIKit. Pins: the largest torque the motor applies, N·pt (as ``frictionTorque``); `.infinity`,
    /// the default, does not limit it. Traps when negative or NaN.
    public var maximumMotorTorque: CGFloat = .infinity {
        didSet {
            require(maximumMotorTorque >= 0, "AttachmentBehavior.maximumMotorTorque must be ≥ 0, got \(maximumMotorTorque)")
            changed()
        }
    }

    /// Beyond UIKit. Pins: the frequency of an angular spring that turns the attached item toward
    /// ``restAngle``, Hz (``AngularSpring``); 0, the default, has none. Traps when negative or not finite.
    public var angularFrequency: CGFloat = 0 {
        didSet {
            require(angularFrequency.isFinite && angularFrequency >= 0,
                    "AttachmentBehavior.angularFrequency must be ≥ 0, got \(angularFrequency)")
            changed()
        }
    }

    /// Beyond UIKit. Pins: the angular spring's damping ratio (1 = critical; default 0). Traps when negative
    /// or not finite.
    public var angularDamping: CGFloat = 0 {
        didSet {
            require(angularDamping.isFinite && angularDamping >= 0,
                    "AttachmentBehavior.angularDamping must be ≥ 0, got \(angularDamping)")
            changed()
        }
    }

    /// Beyond UIKit. Pins: the relative angle the angular spring turns toward, rad from the relative angle
    /// when the pin was made (default 0). Traps when not finite.
    public var restAngle: CGFloat = 0 {
        didSet {
            require(restAngle.isFinite, "AttachmentBehavior.restAngle must be finite, got \(restAngle)")
            changed()
        }
    }

    /// The spring of ``angularFrequency``, ``angularDamping`` and ``restAngle``, or nil.
    var angularSpring: AngularSpring? {
        angularFrequency > 0 ? AngularSpring(frequency: angularFrequency, damping: angularDamping, restAngle: restAngle) : nil
    }

    /// Beyond UIKit. Sliders: the largest force the motor applies, N (an acceleration of 100 · F / m);
    /// `.infinity`, the default, does not limit it. Traps when negative or NaN.
    public var maximumMotorForce: CGFloat = .infinity {
        didSet {
            require(maximumMotorForce >= 0, "AttachmentBehavior.maximumMotorForce must be ≥ 0, got \(maximumMotorForce)")
            changed()
        }
    }

    /// The motor of ``motorSpeed`` and ``maximumMotorTorque``, or nil.
    var motor: AttachmentMotor? { motorSpeed.map { AttachmentMotor(speed: $0, maximumTorque: maximumMotorTorque) } }

    /// Pins: the allowed rotation from the start, rad; sliders: the allowed travel from the start, pt.
    /// ``FloatRange/infinite`` (the default) does not limit. Traps when minimum > maximum or NaN.
    ///
    /// How stiff: where rigid pins and sliders form an open chain (each item has at most two of them and
    /// they make no loop), the range is a rigid one-sided constraint solved exactly with the chain; chains of
    /// up to 50 links under a load 10 times a link's mass stay within 0.02 rad (0.5 pt) of it. Elsewhere
    /// (grids, branch points) it is a stiff spring at 60 Hz with damping ratio 2, which a long chain under
    /// load can push past.
    public var attachmentRange: FloatRange = .infinite {
        didSet {
            require(attachmentRange.minimum <= attachmentRange.maximum,
                         "AttachmentBehavior.attachmentRange needs minimum ≤ maximum, got \(attachmentRange)")
            changed()
        }
    }

    /// Whether the two attached items collide with each other (default false: they pass through each other,
    /// as Box2D's joints, so a chain of attached views does not jam on itself). Has no effect on an
    /// attachment to an anchor.
    public var attachedItemsCollide = false {
        didSet {
            guard attachedItemsCollide != oldValue else { return }
            collisionChanged = true
            didChange()
        }
    }

    /// ``attachedItemsCollide`` changed since the animator last passed it on.
    var collisionChanged = false

    override var directItems: [any DynamicItem] { items }

    private func changed() {
        needsUpdate = true
        didChange()
    }

    /// A point of an item in reference coordinates: its centre plus `offset` rotated with it.
    static func point(of item: any DynamicItem, _ offset: Offset) -> CGPoint {
        let angle = item.rotationAngle
        return CGPoint(x: item.center.x + cos(angle) * offset.horizontal - sin(angle) * offset.vertical,
                       y: item.center.y + sin(angle) * offset.horizontal + cos(angle) * offset.vertical)
    }

    /// A reference-coordinate point in an item's own coordinates (the inverse of ``point(of:_:)``).
    static func offset(of p: CGPoint, in item: any DynamicItem) -> Offset {
        let angle = item.rotationAngle, dx = p.x - item.center.x, dy = p.y - item.center.y
        return Offset(horizontal: cos(angle) * dx + sin(angle) * dy, vertical: -sin(angle) * dx + cos(angle) * dy)
    }

    /// What the kernel holds for the current parameters.
    var attachmentKind: AttachmentKind {
        switch kind {
        case .rod: .rod(length: length, frequency: frequency, damping: damping)
        case .rope: .rope(length: length)
        case .weld: .weld(frequency: frequency, damping: damping)
        case .pin: .pin(range: attachmentRange, frictionTorque: frictionTorque, motor: motor, spring: angularSpring)
        case let .slider(axis):
            .slider(axis: axis, range: attachmentRange, motor: motorSpeed.map { SliderMotor(speed: $0, maximumForce: maximumMotorForce) })
        }
    }
}
