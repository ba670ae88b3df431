// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Beyond UIKit: a region to ask a ``DynamicWorld`` about, in world coordinates (pt).
public enum QueryShape: Hashable, Sendable {
    /// A point.
    case point(CGPoint)
    /// A circle of `radius` pt (≥ 0) about `center`.
    case circle(center: CGPoint, radius: CGFloat)
    /// An axis-aligned rectangle (a negative width or height is taken as its standardized rectangle).
    case rectangle(CGRect)
    /// A convex polygon of 3…16 points in order (either winding), or a segment of 2, grown by `radius` pt (≥ 0):
    /// its corners rounded; a segment with a radius is a capsule.
    case polygon([CGPoint], radius: CGFloat = 0)

    /// The points and radius the kernel takes.
    var kernelPoints: (points: [CGPoint], radius: CGFloat) {
        switch self {
        case let .point(p): ([p], 0)
        case let .circle(center, radius): ([center], radius)
        case let .rectangle(rect):
            ([CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
              CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)], 0)
        case let .polygon(points, radius): (points, radius)
        }
    }
}

/// Beyond UIKit: which shapes a query of a ``DynamicWorld`` sees.
///
/// A shape is seen when its collision groups share a bit with ``groups`` (an item's
/// ``CollisionFilter/itemGroups``; a boundary's group bit) and it is of a kind asked for.
public struct QueryFilter: Hashable, Sendable {
    /// Collision group bits (bit k = group k, 0…63).
    public var groups: UInt64
    /// Whether items' shapes are seen.
    public var includesItems: Bool
    /// Whether boundaries are seen.
    public var includesBoundaries: Bool
    /// Every item and every boundary.
    public static let all = QueryFilter(groups: .max, includesItems: true, includesBoundaries: true)
    /// Every item, no boundary.
    public static let items = QueryFilter(groups: .max, includesItems: true, includesBoundaries: false)
    /// Creates a filter.
    public init(groups: UInt64 = .max, includesItems: Bool = true, includesBoundaries: Bool = true) {
        self.groups = groups
        self.includesItems = includesItems
        self.includesBoundaries = includesBoundaries
    }
}

/// Beyond UIKit: where a ray enters an item's or a boundary's shape.
public struct RayHit: Hashable, Sendable {
    /// What the ray entered.
    public let party: ContactEvent.Party
    /// Where along the ray: 0 at its start, 1 at its end.
    public let fraction: CGFloat
    /// The entry point (pt).
    public let point: CGPoint
    /// The shape's outward unit normal at the entry point.
    public let normal: CGVector
}
