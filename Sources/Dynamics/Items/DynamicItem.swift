// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Something the animator moves (UIKit's `UIDynamicItem`): your own object, or a ``DynamicBody``.
///
/// The animator reads `center` (pt), `bounds` (its size is the collision size, pt) and `transform`
/// (its rotation, radians) when the item joins, and writes `center` and `transform` (a pure rotation)
/// after every step.
public protocol DynamicItem: AnyObject {
    /// Centre in the reference coordinate system, pt.
    var center: CGPoint { get set }
    /// Bounds; the size is the item's collision size in pt.
    var bounds: CGRect { get }
    /// The item's transform; the animator reads and writes its rotation.
    var transform: CGAffineTransform { get set }
    /// The collision shape kind (default ``DynamicItemCollisionBoundsType/rectangle``).
    var collisionBoundsType: DynamicItemCollisionBoundsType { get }
    /// The convex collision path for ``DynamicItemCollisionBoundsType/path``, relative to the centre.
    var collisionBoundingPath: BezierPath { get }
}

extension DynamicItem {
    /// A rectangle, as in UIKit.
    public var collisionBoundsType: DynamicItemCollisionBoundsType { .rectangle }
    /// The bounds as a rectangle centred on the item.
    public var collisionBoundingPath: BezierPath {
        BezierPath(rect: CGRect(x: -bounds.width / 2, y: -bounds.height / 2, width: bounds.width,
                                height: bounds.height))
    }
}

/// The collision shape kind of a ``DynamicItem``.
public enum DynamicItemCollisionBoundsType: Hashable, Sendable {
    /// The bounds rectangle, rotating with the item.
    case rectangle
    /// The ellipse inscribed in the bounds (radii half the bounds).
    case ellipse
    /// The convex ``DynamicItem/collisionBoundingPath`` (3…16 vertices, either winding; its first closed
    /// subpath). Mass and inertia are the polygon's; a concave or self-intersecting path traps, naming the item.
    case path
}

extension DynamicItem {
    /// The rotation of `transform`, radians.
    var rotationAngle: CGFloat { atan2(transform.b, transform.a) }
}
