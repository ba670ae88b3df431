// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel
import Foundation

/// A kernel shape's geometry in the frame the kernel expects (item frame, or world for boundaries).
enum KernelGeometry {
    case circle(center: CGPoint, radius: CGFloat)
    /// A convex polygon, rounded by `radius` (0: sharp); two vertices and a radius make a capsule.
    case polygon([CGPoint], radius: CGFloat = 0)
    /// A segment; `previous` and `next`, when it continues a chain at its start or end, are the neighbouring
    /// segments' far vertices (the kernel's ghost vertices).
    case segment(CGPoint, CGPoint, previous: CGPoint? = nil, next: CGPoint? = nil)
}

/// A kernel shape id (boundaries keep theirs; item shapes go with their item).
struct KernelShapeID: Hashable {
    let index: UInt32
    let generation: UInt32
}

/// One kernel contact event, with its items or boundary tags.
struct KernelContactEvent {
    let began: Bool
    let shapeA, shapeB: KernelShapeID
    let itemA, itemB: ItemID?
    let tagA, tagB: Int32
    let point: CGPoint
}

extension KernelWorld {
    /// Creates a shape; item shapes follow `item`, boundaries (item nil) are static in world coordinates.
    func createShape(item: ItemID?, geometry: KernelGeometry, itemGroups: UInt64, boundaryGroups: UInt64,
                     exclusionGroup: Int32 = 0, tag: Int32 = 0) throws(DynamicsError) -> KernelShapeID
    {
        var def = dkDefaultShapeDef()
        def.item = item.map(kernelID) ?? dkItemId()
        def.itemGroups = itemGroups
        def.boundaryGroups = boundaryGroups
        def.exclusionGroup = exclusionGroup
        def.tag = tag
        let points: [CGPoint]
        switch geometry {
        case let .circle(center, radius):
            def.kind = dkGeometryCircle
            def.radius = Float(radius)
            points = [center]
        case let .polygon(vertices, radius):
            def.kind = dkGeometryPolygon
            def.radius = Float(radius)
            points = vertices
        case let .segment(a, b, previous, next):
            def.kind = dkGeometrySegment
            def.chain = (previous != nil ? UInt32(dkChainPrevious) : 0) | (next != nil ? UInt32(dkChainNext) : 0)
            // Vertices 2 and 3 carry the ghost vertices; the count stays 2.
            points = [a, b, previous ?? a, next ?? b]
        }
        guard points.count <= Int(DK_MAX_POLYGON_VERTICES) else {
            throw .invalidValue(field: "collisionBoundingPath vertex count", value: Double(points.count), index: nil)
        }
        if case .segment = geometry { def.count = 2 } else { def.count = Int32(points.count) }
        withUnsafeMutableBytes(of: &def.x) { raw in
            let xs = raw.bindMemory(to: Float.self)
            for (i, p) in points.enumerated() { xs[i] = Float(p.x) }
        }
        withUnsafeMutableBytes(of: &def.y) { raw in
            let ys = raw.bindMemory(to: Float.self)
            for (i, p) in points.enumerated() { ys[i] = Float(p.y) }
        }
        var id = dkShapeId()
        var error = dkError()
        let result = dkWorld_CreateShape(raw, &def, &id, &error)
        guard result == dkResultOK else {
            if result == dkResultStaleId, let item { throw .staleID(item) }
            throw DynamicsError(error)
        }
        return KernelShapeID(index: id.index1, generation: id.generation)
    }

    func destroyShape(_ id: KernelShapeID) {
        _ = dkWorld_DestroyShape(raw, dkShapeId(index1: id.index, generation: id.generation), nil)
    }

    func destroyShapes(of item: ItemID) { dkWorld_DestroyItemShapes(raw, kernelID(item)) }

    func setShapeGroups(_ id: KernelShapeID, itemGroups: UInt64, boundaryGroups: UInt64) {
        _ = dkWorld_SetShapeGroups(raw, dkShapeId(index1: id.index, generation: id.generation), itemGroups,
                                   boundaryGroups, nil)
    }

    /// Sets the groups of every shape of the items (exclusion groups too, when given).
    func setItemShapeGroups(items: [ItemID], itemGroups: [UInt64], boundaryGroups: [UInt64],
                            exclusionGroups: [Int32]? = nil) throws(DynamicsError)
    {
        let kids = items.map(kernelID)
        var error = dkError()
        let result = kids.withUnsafeBufferPointer { k in
            itemGroups.withUnsafeBufferPointer { ig in
                boundaryGroups.withUnsafeBufferPointer { bg in
                    if let exclusionGroups {
                        return exclusionGroups.withUnsafeBufferPointer { eg in
                            dkWorld_SetItemShapeGroups(raw, k.baseAddress, ig.baseAddress, bg.baseAddress, eg.baseAddress,
                                                       Int32(k.count), &error)
                        }
                    }
                    return dkWorld_SetItemShapeGroups(raw, k.baseAddress, ig.baseAddress, bg.baseAddress, nil,
                                                      Int32(k.count), &error)
                }
            }
        }
        guard result == dkResultOK else {
            if result == dkResultStaleId, error.index >= 0 { throw .staleID(items[Int(error.index)]) }
            throw DynamicsError(error)
        }
    }

    var contactCount: Int { Int(dkWorld_ContactCount(raw)) }

    /// The contact events of the last step, in the kernel's deterministic order.
    func contactEvents() -> [KernelContactEvent] {
        var count: Int32 = 0
        guard let events = dkWorld_ContactEvents(raw, &count), count > 0 else { return [] }
        return UnsafeBufferPointer(start: events, count: Int(count)).map { e in
            KernelContactEvent(
                began: e.began,
                shapeA: KernelShapeID(index: e.shapeA.index1, generation: e.shapeA.generation),
                shapeB: KernelShapeID(index: e.shapeB.index1, generation: e.shapeB.generation),
                itemA: e.itemA.index1 == 0 ? nil : itemID(e.itemA), itemB: e.itemB.index1 == 0 ? nil : itemID(e.itemB),
                tagA: e.tagA, tagB: e.tagB, point: CGPoint(x: CGFloat(e.x), y: CGFloat(e.y)))
        }
    }
}

extension KernelWorld {
    /// Whether a shape id names a live shape.
    func shapeExists(_ id: KernelShapeID) -> Bool {
        dkWorld_ShapeIsValid(raw, dkShapeId(index1: id.index, generation: id.generation))
    }
}
