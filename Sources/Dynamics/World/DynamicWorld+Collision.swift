// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicWorld {
    /// Gives each item a collision shape (in its own frame: `offset` in pt from its centre, turned by
    /// `angle` rad), colliding as `filter` says. An item may have several shapes (a compound).
    /// Throws, adding nothing, on a stale id or a concave, self-intersecting or oversized polygon.
    public func addCollisionShape(_ shape: CollisionShape, offset: CGPoint = .zero, angle: CGFloat = 0,
                                  filter: CollisionFilter = .all, to ids: [ItemID]) throws(DynamicsError)
    {
        requireNoColumnView("addCollisionShape")
        for id in ids where !kernel.isValid(id) { throw .staleID(id) }
        guard let exclusion = Int32(exactly: filter.exclusionGroup) else {
            throw .invalidValue(field: "exclusionGroup", value: Double(filter.exclusionGroup), index: nil)
        }
        let geometry = try shape.kernelGeometry(offset: offset, angle: angle)
        for id in ids {
            _ = try kernel.createShape(item: id, geometry: geometry, itemGroups: filter.itemGroups,
                                       boundaryGroups: filter.boundaryGroups, exclusionGroup: exclusion)
        }
    }

    /// Removes every collision shape of the items.
    public func removeCollisionShapes(from ids: [ItemID]) throws(DynamicsError) {
        requireNoColumnView("removeCollisionShapes")
        for id in ids where !kernel.isValid(id) { throw .staleID(id) }
        for id in ids { kernel.destroyShapes(of: id) }
    }

    /// Sets the collision filter (groups and exclusion group) of every shape of the items.
    public func setCollisionFilter(_ filter: CollisionFilter, for ids: [ItemID]) throws(DynamicsError) {
        requireNoColumnView("setCollisionFilter")
        guard let exclusion = Int32(exactly: filter.exclusionGroup) else {
            throw .invalidValue(field: "exclusionGroup", value: Double(filter.exclusionGroup), index: nil)
        }
        try kernel.setItemShapeGroups(items: ids, itemGroups: Array(repeating: filter.itemGroups, count: ids.count),
                                      boundaryGroups: Array(repeating: filter.boundaryGroups, count: ids.count),
                                      exclusionGroups: Array(repeating: exclusion, count: ids.count))
    }

    /// Adds a static two-sided boundary segment (pt) in collision group `group` (0…63).
    @discardableResult
    public func addBoundary(from start: CGPoint, to end: CGPoint, group: Int = 0) throws(DynamicsError) -> BoundaryID {
        requireNoColumnView("addBoundary")
        return try addSegment(.segment(start, end), group: group)
    }

    /// Adds the segments of a path (arcs and curves flattened; closed subpaths form loops). Consecutive
    /// segments form a chain: items slide over the joints without catching on them.
    @discardableResult
    public func addBoundary(_ path: BezierPath, group: Int = 0) throws(DynamicsError) -> [BoundaryID] {
        requireNoColumnView("addBoundary")
        var ids: [BoundaryID] = []
        do {
            for segment in path.segments() {
                ids.append(try addSegment(.segment(segment.start, segment.end, previous: segment.previous,
                                                   next: segment.next), group: group))
            }
        } catch {
            for id in ids { try? removeBoundary(id) }
            throw error
        }
        return ids
    }

    private func addSegment(_ geometry: KernelGeometry, group: Int) throws(DynamicsError) -> BoundaryID {
        guard (0..<64).contains(group) else { throw .invalidValue(field: "group", value: Double(group), index: nil) }
        let id = try kernel.createShape(item: nil, geometry: geometry, itemGroups: 1 << UInt64(group), boundaryGroups: 0)
        return BoundaryID(index: id.index, generation: id.generation)
    }

    /// Removes a boundary segment.
    public func removeBoundary(_ id: BoundaryID) throws(DynamicsError) {
        requireNoColumnView("removeBoundary")
        let shape = KernelShapeID(index: id.index, generation: id.generation)
        guard kernel.shapeExists(shape) else {
            throw .invalidValue(field: "boundary", value: Double(id.index), index: nil)
        }
        kernel.destroyShape(shape)
    }

    /// Contacts that began or ended in the last step, in a deterministic order.
    public var contactEvents: [ContactEvent] {
        kernel.contactEvents().map { e in
            let a: ContactEvent.Party = e.itemA.map { .item($0) } ?? .boundary(BoundaryID(index: e.shapeA.index, generation: e.shapeA.generation))
            let b: ContactEvent.Party = e.itemB.map { .item($0) } ?? .boundary(BoundaryID(index: e.shapeB.index, generation: e.shapeB.generation))
            let itemFirst = e.itemA != nil || e.itemB == nil
            return ContactEvent(began: e.began, first: itemFirst ? a : b, second: itemFirst ? b : a,
                                point: e.began ? e.point : nil)
        }
    }

    /// Pairs of shapes near each other after the last step (touching or about to).
    public var contactCount: Int { kernel.contactCount }
}

extension CollisionShape {
    /// The kernel geometry in the item frame, moved by `offset` and turned by `angle`.
    func kernelGeometry(offset: CGPoint, angle: CGFloat) throws(DynamicsError) -> KernelGeometry {
        let (c, s) = (cos(angle), sin(angle))
        func place(_ p: CGPoint) -> CGPoint { CGPoint(x: offset.x + c * p.x - s * p.y, y: offset.y + s * p.x + c * p.y) }
        func positive(_ v: CGFloat, _ field: String) throws(DynamicsError) {
            guard v.isFinite, v > 0 else { throw .invalidValue(field: field, value: Double(v), index: nil) }
        }
        switch self {
        case let .rectangle(w, h):
            try positive(w, "width")
            try positive(h, "height")
            return .polygon([CGPoint(x: -w / 2, y: -h / 2), CGPoint(x: w / 2, y: -h / 2), CGPoint(x: w / 2, y: h / 2),
                             CGPoint(x: -w / 2, y: h / 2)].map(place))
        case let .circle(r):
            try positive(r, "radius")
            return .circle(center: offset, radius: r)
        case let .ellipse(w, h):
            try positive(w, "width")
            try positive(h, "height")
            if w == h { return .circle(center: offset, radius: w / 2) }
            return .polygon(Self.ellipseHull(width: w, height: h).map(place))
        case let .polygon(points):
            return .polygon(points.map(place))
        case let .capsule(w, h):
            try positive(w, "width")
            try positive(h, "height")
            if w == h { return .circle(center: offset, radius: w / 2) }
            let r = min(w, h) / 2, half = abs(w - h) / 2
            let ends = w > h ? [CGPoint(x: -half, y: 0), CGPoint(x: half, y: 0)] : [CGPoint(x: 0, y: -half), CGPoint(x: 0, y: half)]
            return .polygon(ends.map(place), radius: r)
        case let .roundedRectangle(w, h, r):
            try positive(w, "width")
            try positive(h, "height")
            guard r.isFinite, r >= 0, r <= min(w, h) / 2 else { throw .invalidValue(field: "cornerRadius", value: Double(r), index: nil) }
            if r == 0 { return try CollisionShape.rectangle(width: w, height: h).kernelGeometry(offset: offset, angle: angle) }
            if r == min(w, h) / 2 { return try CollisionShape.capsule(width: w, height: h).kernelGeometry(offset: offset, angle: angle) }
            let (x, y) = (w / 2 - r, h / 2 - r)
            return .polygon([CGPoint(x: -x, y: -y), CGPoint(x: x, y: -y), CGPoint(x: x, y: y), CGPoint(x: -x, y: y)].map(place), radius: r)
        case let .roundedPolygon(points, r):
            try positive(r, "radius")
            return .polygon(points.map(place), radius: r)
        }
    }
}

extension BezierPath {
    /// The path's line segments after flattening (closed subpaths include their closing segment), each
    /// with the far vertices of its neighbours in the chain: the start of the segment before it and the end
    /// of the segment after it, nil at an open end.
    func segments() -> [(start: CGPoint, end: CGPoint, previous: CGPoint?, next: CGPoint?)] {
        polylines().flatMap { line -> [(start: CGPoint, end: CGPoint, previous: CGPoint?, next: CGPoint?)] in
            var ends = zip(line.points, line.points.dropFirst()).map { ($0, $1) }
            if line.closed, let first = line.points.first, let last = line.points.last { ends.append((last, first)) }
            let n = ends.count
            return ends.enumerated().map { k, pair in
                let previous = line.closed || k > 0 ? ends[(k + n - 1) % n].0 : nil
                let next = line.closed || k < n - 1 ? ends[(k + 1) % n].1 : nil
                return (pair.0, pair.1, previous, next)
            }
        }
    }
}
