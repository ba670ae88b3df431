// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel
import Foundation

/// A ray's entry into a kernel shape: the shape, its item (nil for a boundary), where and how.
struct KernelRayHit {
    let shape: KernelShapeID
    let item: ItemID?
    let fraction: Float
    let x, y, nx, ny: Float
}

extension KernelWorld {
    fileprivate static func kernelShape(_ points: [CGPoint], radius: CGFloat) throws(DynamicsError) -> dkQueryShape {
        guard (1...Int(DK_MAX_POLYGON_VERTICES)).contains(points.count) else {
            throw .invalidValue(field: "query shape vertex count", value: Double(points.count), index: nil)
        }
        var shape = dkQueryShape()
        shape.count = Int32(points.count)
        shape.radius = Float(radius)
        withUnsafeMutableBytes(of: &shape.x) { raw in
            let xs = raw.bindMemory(to: Float.self)
            for (i, p) in points.enumerated() { xs[i] = Float(p.x) }
        }
        withUnsafeMutableBytes(of: &shape.y) { raw in
            let ys = raw.bindMemory(to: Float.self)
            for (i, p) in points.enumerated() { ys[i] = Float(p.y) }
        }
        return shape
    }

    /// The shapes overlapping or touching the convex hull of `points` grown by `radius`, in slot order.
    func shapes(overlapping points: [CGPoint], radius: CGFloat, filter: QueryFilter) throws(DynamicsError)
        -> [KernelShapeID]
    {
        var shape = try Self.kernelShape(points, radius: radius)
        let kernelFilter = Self.filter(filter)
        var capacity = 64
        while true {
            var error = dkError()
            var ids = [dkShapeId](repeating: dkShapeId(), count: capacity)
            let n = ids.withUnsafeMutableBufferPointer { out in
                dkWorld_QueryOverlaps(raw, &shape, kernelFilter, out.baseAddress, Int32(capacity), &error)
            }
            if n < 0 { throw DynamicsError(error) }
            if Int(n) <= capacity {
                return ids.prefix(Int(n)).map { KernelShapeID(index: $0.index1, generation: $0.generation) }
            }
            capacity = Int(n)
        }
    }

    /// The shapes the segment from `start` to `end` enters: every one by fraction, or only the first.
    func rayCast(from start: CGPoint, to end: CGPoint, filter: QueryFilter, all: Bool) throws(DynamicsError)
        -> [KernelRayHit]
    {
        let kernelFilter = Self.filter(filter)
        var capacity = all ? 16 : 1
        while true {
            var error = dkError()
            var hits = [dkRayHit](repeating: dkRayHit(), count: capacity)
            let n = hits.withUnsafeMutableBufferPointer { out in
                dkWorld_RayCast(raw, Float(start.x), Float(start.y), Float(end.x), Float(end.y), kernelFilter, all,
                                out.baseAddress, Int32(capacity), &error)
            }
            if n < 0 { throw DynamicsError(error) }
            if Int(n) <= capacity {
                return hits.prefix(Int(n)).map { hit in
                    KernelRayHit(shape: KernelShapeID(index: hit.shape.index1, generation: hit.shape.generation),
                                 item: hit.item.index1 == 0 ? nil : itemID(hit.item), fraction: hit.fraction,
                                 x: hit.x, y: hit.y, nx: hit.nx, ny: hit.ny)
                }
            }
            capacity = Int(n)
        }
    }

    /// The item of a kernel shape (nil for a boundary).
    func item(ofShape shape: KernelShapeID) -> ItemID? {
        let item = dkWorld_ShapeItem(raw, dkShapeId(index1: shape.index, generation: shape.generation))
        return item.index1 == 0 ? nil : itemID(item)
    }
}

extension KernelWorld {
    /// The first hit of each ray, nil where none (dkWorld_RayCastMany).
    func rayCastMany(x0: [Float], y0: [Float], x1: [Float], y1: [Float], filter: QueryFilter) throws(DynamicsError)
        -> [KernelRayHit?]
    {
        let count = x0.count
        var hits = [dkRayHit](repeating: dkRayHit(), count: count)
        var error = dkError()
        let result = hits.withUnsafeMutableBufferPointer { out in
            dkWorld_RayCastMany(raw, x0, y0, x1, y1, Int32(count), Self.filter(filter), out.baseAddress, &error)
        }
        guard result == dkResultOK else { throw DynamicsError(error) }
        return hits.map { hit in
            guard hit.shape.index1 != 0 else { return nil }
            return KernelRayHit(shape: KernelShapeID(index: hit.shape.index1, generation: hit.shape.generation),
                                item: hit.item.index1 == 0 ? nil : itemID(hit.item), fraction: hit.fraction,
                                x: hit.x, y: hit.y, nx: hit.nx, ny: hit.ny)
        }
    }

    /// The first shape (lowest slot) containing each point, nil where none (dkWorld_QueryPointsMany).
    func shapesMany(x: [Float], y: [Float], filter: QueryFilter) throws(DynamicsError) -> [KernelShapeID?] {
        let count = x.count
        var ids = [dkShapeId](repeating: dkShapeId(), count: count)
        var error = dkError()
        let result = ids.withUnsafeMutableBufferPointer { out in
            dkWorld_QueryPointsMany(raw, x, y, Int32(count), Self.filter(filter), out.baseAddress, nil, &error)
        }
        guard result == dkResultOK else { throw DynamicsError(error) }
        return ids.map { $0.index1 == 0 ? nil : KernelShapeID(index: $0.index1, generation: $0.generation) }
    }

    static func filter(_ filter: QueryFilter) -> dkQueryFilter {
        dkQueryFilter(groups: filter.groups, items: filter.includesItems, boundaries: filter.includesBoundaries)
    }
}

extension KernelWorld {
    /// Whether the convex hulls of `a` and `b`, each grown by its radius, overlap or touch: the exact test of the
    /// world's queries, with no world. Throws when either is not a valid query shape.
    static func overlap(_ a: (points: [CGPoint], radius: CGFloat), _ b: (points: [CGPoint], radius: CGFloat))
        throws(DynamicsError) -> Bool
    {
        var first = try kernelShape(a.points, radius: a.radius), second = try kernelShape(b.points, radius: b.radius)
        var error = dkError()
        let result = dkQueryShapes_Overlap(&first, &second, &error)
        if result < 0 { throw DynamicsError(error) }
        return result == 1
    }
}
