// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The collision outline of an item, in the item's own frame (relative to its centre, at angle 0), pt.
public enum CollisionShape: Hashable, Sendable {
    /// A width × height rectangle centred on the item.
    case rectangle(width: CGFloat, height: CGFloat)
    /// A circle centred on the item (exact).
    case circle(radius: CGFloat)
    /// The ellipse inscribed in width × height, approximated by the convex hull of 16 points on it
    /// (a circle when width equals height, which is exact).
    case ellipse(width: CGFloat, height: CGFloat)
    /// A convex polygon of 3…16 vertices, either winding. A concave or self-intersecting polygon throws.
    case polygon([CGPoint])
    /// Beyond UIKit: the stadium inscribed in width × height, pt: a rectangle with round ends (half-circles of
    /// the shorter side) on its shorter sides; a circle when the sides are equal. Exact, as Box2D's capsule.
    case capsule(width: CGFloat, height: CGFloat)
    /// Beyond UIKit: a width × height rectangle whose corners are rounded to `cornerRadius` pt (0 … half the
    /// shorter side; 0 is the rectangle, half the shorter side the capsule). Exact, as Box2D's rounded box.
    case roundedRectangle(width: CGFloat, height: CGFloat, cornerRadius: CGFloat)
    /// Beyond UIKit: the points within `radius` pt (> 0) of a convex polygon of 3…16 vertices (the polygon grown
    /// by the radius, its corners rounded), as Box2D's rounded polygons. Exact.
    case roundedPolygon([CGPoint], radius: CGFloat)

    /// Vertices of the 16-point ellipse hull.
    static func ellipseHull(width: CGFloat, height: CGFloat) -> [CGPoint] {
        (0..<16).map { k in
            let a = CGFloat(k) * 2 * .pi / 16
            return CGPoint(x: width / 2 * cos(a), y: height / 2 * sin(a))
        }
    }
}

/// Which collision behaviours an item belongs to, as bit masks (bit k = group k, 0…63).
///
/// Two items collide when their ``itemGroups`` share a bit and they are not in the same nonzero
/// ``exclusionGroup``; an item and a boundary collide when the item's ``boundaryGroups`` contains the
/// boundary's group.
public struct CollisionFilter: Hashable, Sendable {
    /// Groups whose items this item collides with.
    public var itemGroups: UInt64
    /// Groups whose boundaries this item collides with.
    public var boundaryGroups: UInt64
    /// Beyond UIKit: items whose shapes share a nonzero exclusion group never collide with each other,
    /// whatever their ``itemGroups`` (Box2D's negative group index): the limbs of one ragdoll. 0 (the
    /// default): none. Any `Int32` value.
    public var exclusionGroup: Int
    /// Collides with every item and every boundary.
    public static let all = CollisionFilter(itemGroups: .max, boundaryGroups: .max)
    /// Creates a filter.
    public init(itemGroups: UInt64, boundaryGroups: UInt64, exclusionGroup: Int = 0) {
        self.itemGroups = itemGroups
        self.boundaryGroups = boundaryGroups
        self.exclusionGroup = exclusionGroup
    }
}

/// The id of a boundary segment of a ``DynamicWorld``.
public struct BoundaryID: Hashable, Sendable, CustomStringConvertible {
    /// The shape slot, counting from 1.
    public let index: UInt32
    /// The slot's generation.
    public let generation: UInt32
    /// Creates an id from its parts.
    public init(index: UInt32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }
    /// `boundary#index.generation`.
    public var description: String { "boundary#\(index).\(generation)" }
}

/// A contact that began or ended during the last step of a ``DynamicWorld``.
public struct ContactEvent: Hashable, Sendable {
    /// One side of a contact.
    public enum Party: Hashable, Sendable {
        /// An item.
        case item(ItemID)
        /// A boundary segment.
        case boundary(BoundaryID)
    }
    /// True when the contact began, false when it ended.
    public let began: Bool
    /// The first side (an item when either side is one).
    public let first: Party
    /// The second side.
    public let second: Party
    /// The contact point in reference coordinates (pt), for a contact that began.
    public let point: CGPoint?
    /// Creates an event.
    public init(began: Bool, first: Party, second: Party, point: CGPoint?) {
        self.began = began
        self.first = first
        self.second = second
        self.point = point
    }
}
