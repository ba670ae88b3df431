// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// One item of a scene file: a string id, a shape, a pose, an initial velocity and a material.
public struct SceneItem: Hashable, Sendable {
    /// Unique among the scene's items (generated items are `prefix-N`).
    public var id: String
    /// The outline (also its collision shape when a collision behaviour holds it).
    public var shape: SceneShape
    /// Centre, pt.
    public var center: CGPoint
    /// Angle, rad.
    public var angle: CGFloat = 0
    /// Initial velocity, pt/s.
    public var velocity = CGVector(dx: 0, dy: 0)
    /// Initial angular velocity, rad/s.
    public var angularVelocity: CGFloat = 0
    /// Density, elasticity, friction, resistance, charge, anchoring.
    public var material = SceneMaterial()
    /// Names behaviours can refer to this item by (with its generator's id).
    public var tags: [String] = []
    /// Whether the item starts at rest, with its island (`DynamicWorld.putToRest(_:)`): skipped by
    /// the step until something wakes it (default false).
    public var resting = false
    /// Beyond UIKit: items of one nonzero exclusion group never collide with each other, whatever their
    /// collision behaviours (`CollisionFilter.exclusionGroup`: the limbs of a ragdoll). 0 (the default): none.
    public var exclusionGroup = 0

    /// An item with the default material.
    public init(id: String, shape: SceneShape, center: CGPoint) {
        self.id = id
        self.shape = shape
        self.center = center
    }
}

/// An item's outline in its own frame, pt.
public indirect enum SceneShape: Hashable, Sendable {
    /// A width × height rectangle.
    case rectangle(width: CGFloat, height: CGFloat)
    /// The ellipse inscribed in width × height (a circle when equal).
    case ellipse(width: CGFloat, height: CGFloat)
    /// A convex polygon of 3…16 vertices around the item's centre (UIKit's `.path` collision bounds).
    case polygon([CGPoint])
    /// Beyond UIKit: the stadium inscribed in width × height (round ends on its shorter sides; a circle when
    /// equal), as `CollisionShape.capsule(width:height:)`.
    case capsule(width: CGFloat, height: CGFloat)
    /// Beyond UIKit: a width × height rectangle with corners rounded to `radius` (0 … half the shorter side).
    case roundedRectangle(width: CGFloat, height: CGFloat, radius: CGFloat)
    /// Beyond UIKit: the points within `radius` (> 0) of a convex polygon of 3…16 vertices around the centre.
    case roundedPolygon([CGPoint], radius: CGFloat)
    /// Several shapes joined rigidly (UIKit's `DynamicItemGroup`), placed around the item's `center`. The
    /// item moves as one body whose centre of mass is the parts' (each part's mass at its offset); the world,
    /// trajectories and pictures place the item by that centre of mass.
    case group([SceneShapePart])
}

/// One shape of a group, at an offset (pt) from the item's `center` and turned by an angle (rad).
public struct SceneShapePart: Hashable, Sendable {
    /// The part's outline (not itself a group).
    public var shape: SceneShape
    /// Its centre relative to the item's `center`, pt.
    public var offset: CGPoint
    /// Its angle in the item's frame, rad.
    public var angle: CGFloat

    /// A part.
    public init(shape: SceneShape, offset: CGPoint, angle: CGFloat = 0) {
        self.shape = shape
        self.offset = offset
        self.angle = angle
    }
}

/// An item's material, as `DynamicItemBehavior`'s properties.
public struct SceneMaterial: Hashable, Sendable {
    /// Mass per 10 000 pt², > 0 (default 1).
    public var density: CGFloat = 1
    /// Restitution 0…1 (default 0).
    public var elasticity: CGFloat = 0
    /// Coulomb friction ≥ 0 (default 0).
    public var friction: CGFloat = 0
    /// Linear damping ≥ 0, 1/s (default 0).
    public var resistance: CGFloat = 0
    /// Angular damping ≥ 0, 1/s (default 0).
    public var angularResistance: CGFloat = 0
    /// Charge for electric and magnetic fields (default 0).
    public var charge: CGFloat = 0
    /// Anchored items never move (default false).
    public var anchored = false
    /// Kinematic items (beyond UIKit) move at their velocity alone, set by `velocity`, `angularVelocity` and the
    /// timeline's `velocity` and `drive` events, and push dynamic items without being pushed
    /// (`ItemDescription.isKinematic`; default false). Not with `anchored`.
    public var kinematic = false
    /// When false the item keeps its angle (default true).
    public var allowsRotation = true

    /// The defaults.
    public init() {}
}

/// Items made in bulk, each with the id `prefix-N` (N from 0) and the generator's id as a tag.
public struct SceneGenerator: Hashable, Sendable {
    /// How the items are placed.
    public enum Layout: Hashable, Sendable {
        /// `count` items row by row from `origin`, `columns` per row, `spacing` apart (pt).
        case grid(origin: CGPoint, columns: Int, spacing: CGVector)
        /// `count` items at uniformly random centres in `rect` (pt), sized uniformly between `minSize`
        /// and `maxSize` (each side; a circle takes its diameter from the widths), from the scene's seed and `seed`.
        case random(rect: CGRect, minSize: CGSize, maxSize: CGSize, seed: UInt64)
    }

    /// The items' id prefix and the tag that names them all.
    public var id: String
    /// How many items, ≥ 1.
    public var count: Int
    /// Placement.
    public var layout: Layout
    /// The outline (a random layout rescales rectangles and ellipses to each item's size).
    public var shape: SceneShape
    /// The items' material.
    public var material = SceneMaterial()
    /// Further tags for every item.
    public var tags: [String] = []
    /// Angle of every item, rad.
    public var angle: CGFloat = 0
    /// Whether the items start at rest (`DynamicWorld.putToRest(_:)`; default false).
    public var resting = false

    /// Whether `name` is `prefix-N` with N in 0..<`count`: the id of a generator's item, or of a repeating
    /// make's instance (no count).
    static func isNumbered(_ name: String, prefix: String, below count: Int = .max) -> Bool {
        guard name.hasPrefix(prefix + "-"), let n = Int(name.dropFirst(prefix.count + 1)) else { return false }
        return n >= 0 && n < count
    }

    /// Whether this generator makes an item with the id `name`.
    func makes(_ name: String) -> Bool { Self.isNumbered(name, prefix: id, below: count) }

    /// A generator with the default material.
    public init(id: String, count: Int, layout: Layout, shape: SceneShape) {
        self.id = id
        self.count = count
        self.layout = layout
        self.shape = shape
    }
}
