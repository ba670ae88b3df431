// SPDX-License-Identifier: Apache-2.0
import Foundation

/// An area of the plane, in points, relative to a field's position (UIKit's `UIRegion`).
///
/// A region is a circle or a rectangle centred on the origin, the infinite region, or any combination of
/// them: ``inverse()``, ``byUnion(with:)``, ``byDifference(from:)`` and ``byIntersection(with:)``, nested to
/// any depth. Edges belong to the region: a point exactly on a circle or a rectangle's side is inside.
/// Regions are values; combining two makes a new one and changes neither.
///
/// ```swift
/// // a ring: inside 200 pt of the position but not inside 50 pt
/// let ring = Region(radius: 200).byDifference(from: Region(radius: 50))
/// ring.contains(CGPoint(x: 100, y: 0))   // true
/// ```
public struct Region: Hashable, Sendable {
    indirect enum Node: Hashable, Sendable {
        case infinite
        case empty
        case circle(radius: CGFloat)
        case rectangle(halfWidth: CGFloat, halfHeight: CGFloat)
        case inverse(Node)
        case union(Node, Node)
        case intersection(Node, Node)
        case difference(Node, Node)  // the first minus the second
    }

    let node: Node

    init(node: Node) { self.node = node }

    /// The region that contains every point.
    public static let infinite = Region(node: .infinite)

    /// A circle of `radius` points centred on the origin. Traps when the radius is negative or not finite.
    public init(radius: CGFloat) {
        require(radius.isFinite && radius >= 0, "Region(radius:): the radius must be finite and ≥ 0, got \(radius)")
        node = .circle(radius: radius)
    }

    /// A rectangle of `size` (points) centred on the origin. Traps when a side is negative or not finite.
    public init(size: CGSize) {
        require(size.width.isFinite && size.width >= 0 && size.height.isFinite && size.height >= 0,
                     "Region(size:): the width and height must be finite and ≥ 0, got \(size)")
        node = .rectangle(halfWidth: size.width / 2, halfHeight: size.height / 2)
    }

    /// The points that are not in this region. The inverse of the infinite region is empty.
    public func inverse() -> Region {
        switch node {
        case .infinite: Region(node: .empty)
        case .empty: .infinite
        case .inverse(let inner): Region(node: inner)
        default: Region(node: .inverse(node))
        }
    }

    /// The points in this region or in `region`. A union with the infinite region is infinite.
    public func byUnion(with region: Region) -> Region {
        if node == .infinite || region.node == .infinite { return .infinite }
        if node == .empty { return region }
        if region.node == .empty { return self }
        return Region(node: .union(node, region.node))
    }

    /// The points in this region that are not in `region`.
    public func byDifference(from region: Region) -> Region {
        if node == .empty || region.node == .infinite { return Region(node: .empty) }
        if region.node == .empty { return self }
        return Region(node: .difference(node, region.node))
    }

    /// The points in both this region and `region`.
    public func byIntersection(with region: Region) -> Region {
        if node == .empty || region.node == .empty { return Region(node: .empty) }
        if node == .infinite { return region }
        if region.node == .infinite { return self }
        return Region(node: .intersection(node, region.node))
    }

    /// Whether `point` (pt, relative to the region's origin) lies in the region.
    public func contains(_ point: CGPoint) -> Bool { node.contains(point.x, point.y) }
}

extension Region.Node {
    func contains(_ x: CGFloat, _ y: CGFloat) -> Bool {
        switch self {
        case .infinite: true
        case .empty: false
        case .circle(let r): x * x + y * y <= r * r
        case .rectangle(let hw, let hh): abs(x) <= hw && abs(y) <= hh
        case .inverse(let inner): !inner.contains(x, y)
        case .union(let a, let b): a.contains(x, y) || b.contains(x, y)
        case .intersection(let a, let b): a.contains(x, y) && b.contains(x, y)
        case .difference(let a, let b): a.contains(x, y) && !b.contains(x, y)
        }
    }
}

extension Region: CustomStringConvertible {
    /// A readable form, e.g. `circle(50) − rectangle(20 × 10)`.
    public var description: String { node.description }
}

extension Region.Node: CustomStringConvertible {
    var description: String {
        switch self {
        case .infinite: "infinite"
        case .empty: "empty"
        case .circle(let r): "circle(\(r))"
        case .rectangle(let hw, let hh): "rectangle(\(2 * hw) × \(2 * hh))"
        case .inverse(let inner): "inverse(\(inner))"
        case .union(let a, let b): "(\(a) ∪ \(b))"
        case .intersection(let a, let b): "(\(a) ∩ \(b))"
        case .difference(let a, let b): "(\(a) − \(b))"
        }
    }
}
