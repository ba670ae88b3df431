// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicWorld {
    /// Beyond UIKit: the items with a shape that contains `point` (pt; its edge included), at their poses of the
    /// moment, each once, in ascending index order. Answered from a grid of the shapes' boxes that the first query
    /// after a change (a step, poses or shapes set, items added or removed) builds.
    public func items(at point: CGPoint, filter: QueryFilter = .items) throws(DynamicsError) -> [ItemID] {
        try items(overlapping: .point(point), filter: filter)
    }

    /// Beyond UIKit: the items with a shape that overlaps or touches `shape` (exact shapes, not their bounding
    /// boxes), each once, in ascending index order. Throws when the shape is not finite, a radius is negative, a
    /// polygon has more than 16 points or is not convex.
    public func items(overlapping shape: QueryShape, filter: QueryFilter = .items) throws(DynamicsError) -> [ItemID] {
        var seen = Set<ItemID>()
        return try parties(overlapping: shape, filter: filter).compactMap { party in
            guard case let .item(id) = party, seen.insert(id).inserted else { return nil }
            return id
        }.sorted { $0.index < $1.index }
    }

    /// Beyond UIKit: the items (once each) and boundaries whose shapes overlap or touch `shape`.
    public func parties(overlapping shape: QueryShape, filter: QueryFilter = .all) throws(DynamicsError)
        -> [ContactEvent.Party]
    {
        let (points, radius) = shape.kernelPoints
        return try kernel.shapes(overlapping: points, radius: radius, filter: filter).map { id in
            if let item = kernel.item(ofShape: id) { return .item(item) }
            return .boundary(BoundaryID(index: id.index, generation: id.generation))
        }
    }

    /// Beyond UIKit: the first shape the segment from `start` to `end` (pt) enters, or nil. A shape the ray starts
    /// in is not entered. Of two entries at the same fraction, the shape made first.
    public func rayCast(from start: CGPoint, to end: CGPoint, filter: QueryFilter = .all) throws(DynamicsError)
        -> RayHit?
    {
        try rayHits(from: start, to: end, filter: filter, all: false).first
    }

    /// Beyond UIKit: every shape the segment from `start` to `end` (pt) enters, by fraction (then the shape made
    /// first). An item with several shapes may be entered more than once.
    public func rayCastAll(from start: CGPoint, to end: CGPoint, filter: QueryFilter = .all) throws(DynamicsError)
        -> [RayHit]
    {
        try rayHits(from: start, to: end, filter: filter, all: true)
    }

    /// Beyond UIKit, in bulk: the first shape each ray from `starts[i]` to `ends[i]` (pt) enters, as
    /// ``rayCast(from:to:filter:)`` answers, into `hits[i]` (nil where none). `hits` is replaced, its storage reused.
    /// The rays are split between the world's workers; each answer depends only on its ray. Throws when the counts
    /// differ or a coordinate is not finite (naming the ray), leaving `hits` as it was.
    public func rayCast(from starts: [CGPoint], to ends: [CGPoint], filter: QueryFilter = .all,
                        into hits: inout [RayHit?]) throws(DynamicsError)
    {
        guard starts.count == ends.count else {
            throw .invalidValue(field: "ends.count", value: Double(ends.count), index: nil)
        }
        let found = try kernel.rayCastMany(x0: starts.map { Float($0.x) }, y0: starts.map { Float($0.y) },
                                           x1: ends.map { Float($0.x) }, y1: ends.map { Float($0.y) }, filter: filter)
        hits.removeAll(keepingCapacity: true)
        hits.append(contentsOf: found.lazy.map { $0.map(self.rayHit) })
    }

    /// Beyond UIKit, in bulk: for each point (pt), the item of the first shape (the shape made first) that contains
    /// it, into `items[i]` (nil where none). `items` is replaced, its storage reused. Split between the workers as
    /// ``rayCast(from:to:filter:into:)``.
    public func items(at points: [CGPoint], filter: QueryFilter = .items, into items: inout [ItemID?])
        throws(DynamicsError)
    {
        let found = try kernel.shapesMany(x: points.map { Float($0.x) }, y: points.map { Float($0.y) },
                                          filter: QueryFilter(groups: filter.groups, includesItems: filter.includesItems, includesBoundaries: false))
        items.removeAll(keepingCapacity: true)
        items.append(contentsOf: found.lazy.map { $0.flatMap { self.kernel.item(ofShape: $0) } })
    }

    private func rayHit(_ hit: KernelRayHit) -> RayHit {
        RayHit(party: hit.item.map { .item($0) } ?? .boundary(BoundaryID(index: hit.shape.index, generation: hit.shape.generation)),
               fraction: CGFloat(hit.fraction), point: CGPoint(x: CGFloat(hit.x), y: CGFloat(hit.y)),
               normal: CGVector(dx: CGFloat(hit.nx), dy: CGFloat(hit.ny)))
    }

    private func rayHits(from start: CGPoint, to end: CGPoint, filter: QueryFilter, all: Bool) throws(DynamicsError)
        -> [RayHit]
    {
        try kernel.rayCast(from: start, to: end, filter: filter, all: all).map(rayHit)
    }
}
