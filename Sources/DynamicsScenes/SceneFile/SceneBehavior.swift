// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// Which items a behaviour acts on: listed ids and tags (a generator's id is a tag); both empty means
/// every item of the scene.
public struct SceneTargets: Hashable, Sendable {
    /// Item ids.
    public var items: [String] = []
    /// Tags.
    public var tags: [String] = []
    /// Every item.
    public static let all = SceneTargets()
    /// The given ids and tags.
    public init(items: [String] = [], tags: [String] = []) {
        self.items = items
        self.tags = tags
    }
}

/// A behaviour of a scene file, with an optional id that the timeline refers to.
public struct SceneBehavior: Hashable, Sendable {
    /// What the behaviour does.
    public enum Kind: Hashable, Sendable {
        /// UIKit's gravity: `direction` 1 = 1000 pt/s².
        case gravity(direction: CGVector, targets: SceneTargets)
        /// Collisions among the targets (`mode` items, boundaries or everything) and with its boundaries.
        case collision(SceneCollision)
        /// An attachment between an item and another item or a fixed point.
        case attachment(SceneAttachment)
        /// A snap spring of `item` to `point` (pt) with damping ratio ζ `dampingRatio` at `frequency` Hz (a file's
        /// UIKit `damping` d gives ζ = 0.05 + 0.95·d, as `SnapBehavior` does).
        case snap(item: String, point: CGPoint, dampingRatio: CGFloat, frequency: CGFloat)
        /// A push: a force (N) or, instantaneous, an impulse (N·s), at an offset from the centre.
        case push(ScenePush)
        /// Material of the targets, overriding their own (a later item behaviour wins).
        case item(SceneItemBehavior)
        /// A field.
        case field(SceneField)
    }

    /// The name the timeline uses, unique; optional.
    public var id: String?
    /// What it does.
    public var kind: Kind

    /// A behaviour.
    public init(id: String? = nil, _ kind: Kind) {
        self.id = id
        self.kind = kind
    }
}

/// A collision behaviour.
public struct SceneCollision: Hashable, Sendable {
    /// What the targets collide with.
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        /// Each other only.
        case items
        /// The boundaries only.
        case boundaries
        /// Both (the default).
        case everything
    }

    /// A boundary of the behaviour, with the identifier contact events report.
    public struct Boundary: Hashable, Sendable {
        /// Its shape.
        public enum Shape: Hashable, Sendable {
            /// A segment.
            case segment(from: CGPoint, to: CGPoint)
            /// A polyline through `points`, closed back to the first when `closed`.
            case path(points: [CGPoint], closed: Bool)
            /// An arc of `radius` around `center` from `startAngle` to `endAngle` (rad), clockwise or not.
            case arc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool)
        }

        /// The identifier.
        public var id: String
        /// The shape.
        public var shape: Shape

        /// A boundary.
        public init(id: String, shape: Shape) {
            self.id = id
            self.shape = shape
        }
    }

    /// The items it holds.
    public var targets = SceneTargets.all
    /// What they collide with.
    public var mode = Mode.everything
    /// Whether the scene's reference bounds (less `insets`) are a boundary.
    public var boundsAsBoundary = false
    /// Insets of that boundary from the bounds: top, left, bottom, right, pt.
    public var insets = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
    /// Further boundaries.
    public var boundaries: [Boundary] = []

    /// Every item, colliding with everything, no boundaries.
    public init() {}
}

/// An attachment behaviour.
public struct SceneAttachment: Hashable, Sendable {
    /// The attached item.
    public var item: String
    /// The other item; nil: a fixed point of the world (`anchor`).
    public var other: String?
    /// The anchor on the other side, pt (the world point itself when `other` is nil).
    public var anchor: CGPoint
    /// The anchor on `item`, pt at the start. Nil: the item's centre when the attachment is made for a rod or
    /// rope (UIKit's `init(item:attachedToAnchor:)`), `anchor` for a pin, weld or slider (one shared point).
    public var itemAnchor: CGPoint?
    /// What it holds.
    public var kind: AttachmentKind
    /// Whether the two attached items collide with each other (default false).
    public var collide: Bool

    /// An attachment.
    public init(item: String, other: String? = nil, anchor: CGPoint, itemAnchor: CGPoint? = nil, kind: AttachmentKind,
                collide: Bool = false) {
        self.item = item
        self.other = other
        self.anchor = anchor
        self.itemAnchor = itemAnchor
        self.kind = kind
        self.collide = collide
    }
}

/// A push behaviour.
public struct ScenePush: Hashable, Sendable {
    /// The items pushed.
    public var targets = SceneTargets.all
    /// The force (N) or, instantaneous, the impulse (N·s), as a vector.
    public var vector = CGVector(dx: 0, dy: 0)
    /// Where it acts, from each item's centre (pt, in the item's frame).
    public var offset = Offset.zero
    /// Instantaneous pushes act once, when (re)activated; continuous ones every step while active.
    public var instantaneous = false
    /// Whether it acts (default true).
    public var active = true

    /// A continuous push of zero force on every item.
    public init() {}
}

/// An item behaviour: material for its targets. Properties left nil keep the item's own.
public struct SceneItemBehavior: Hashable, Sendable {
    /// The items.
    public var targets = SceneTargets.all
    /// Overrides (nil: keep).
    public var density, elasticity, friction, resistance, angularResistance, charge: CGFloat?
    /// Overrides (nil: keep).
    public var anchored, allowsRotation, kinematic: Bool?

    /// An item behaviour that changes nothing.
    public init() {}
}

/// A change at a time of a scene's run.
public struct SceneEvent: Hashable, Sendable {
    /// What changes.
    public enum Action: Hashable, Sendable {
        /// Sets `property` of the behaviour with id `behavior` to `value` (as the file writes it).
        case set(behavior: String, property: String, value: SceneValue)
        /// Sets the velocity (pt/s) and angular velocity (rad/s) of the targets.
        case velocity(targets: SceneTargets, linear: CGVector, angular: CGFloat)
        /// Beyond UIKit: drives `item` to the centre (pt) and, when given, the angle (rad) over the next step
        /// (`DynamicWorld.drive(_:to:angles:)`): a kinematic item ends that step there.
        case drive(item: String, center: CGPoint, angle: CGFloat?)
        /// Adds a behaviour.
        case add(SceneBehavior)
        /// Removes the behaviour with this id or, beyond UIKit, the items (and their attachments) of the
        /// template instance with this name.
        case remove(String)
        /// Beyond UIKit: makes an instance of the template with id `template`, its origin at `origin` (pt),
        /// its items named `instance/ITEM` (``SceneTemplate``). An instance of that name that exists already is
        /// removed first. Repeated, the k-th time names it `instance-j` and moves its origin by `j` times
        /// ``repeatShift``, where j is k, or k modulo ``repeatCycle`` when that is given.
        case make(template: String, instance: String, origin: CGPoint)
    }

    /// When, s from the start (applied before the first step at or after it).
    public var time: Double
    /// What.
    public var action: Action
    /// Beyond UIKit: the event happens again every `every` s (> 0) after `time`, `count` times in all
    /// (nil: until the run ends). Nil: once.
    public var repeating: (every: Double, count: Int?)? {
        get { repeatEvery.map { ($0, repeatCount) } }
        set {
            repeatEvery = newValue?.every
            repeatCount = newValue?.count
        }
    }
    private var repeatEvery: Double?
    private var repeatCount: Int?
    /// Beyond UIKit, for a repeating `make`: how far each repetition's origin moves from the last, pt
    /// (default zero).
    public var repeatShift = CGVector(dx: 0, dy: 0)
    /// Beyond UIKit, for a repeating `make`: after this many repetitions (≥ 1) the names and origins start over,
    /// so each makes again, in place of the instance made `repeatCycle` repetitions before (nil: never).
    public var repeatCycle: Int?
    /// Which repetition this is (0: the event as written).
    var occurrence = 0

    /// An event.
    public init(time: Double, _ action: Action) {
        self.time = time
        self.action = action
    }
}
