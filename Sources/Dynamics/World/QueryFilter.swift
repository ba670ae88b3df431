// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Beyond UIKit: which shapes a query of a ``DynamicWorld`` sees.
///
/// A shape is seen when its collision groups share a bit with ``groups`` (an item's
/// ``CollisionFilter/itemGroups``; a boundary's group bit) and it is of a kind asked for. With every bit of
/// ``groups`` set (`.max`, the default) every shape is seen, one in no group included: an item whose
/// ``CollisionFilter/itemGroups`` is 0 (it meets only boundaries) is still found by ``all`` and ``items``.
public struct QueryFilter: Hashable, Sendable {
    /// Collision group bits (bit k = group k, 0…63); `.max` sees every shape, one in no group included.
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
