// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel

/// A kernel world built directly through the C API, for collision tests below the Swift layer.
final class KernelScene {
    let world: OpaquePointer

    init(workers: Int32 = 1) {
        var def = dkDefaultWorldDef()
        def.workerCount = workers
        world = dkWorld_Create(&def, nil)!
    }

    deinit { dkWorld_Destroy(world) }

    /// A box (w × h pt, density 1) at (x, y) with gravity 1000 pt/s² down; returns its id.
    @discardableResult
    func box(x: Float, y: Float, w: Float = 100, h: Float = 100, angle: Float = 0, gravity: Float = 1000,
             friction: Float = 0.6, elasticity: Float = 0) -> dkItemId {
        var def = dkDefaultItemDef()
        def.width = w
        def.height = h
        def.friction = friction
        def.elasticity = elasticity
        var id = dkItemId()
        var xs = [x], ys = [y], angles = [angle]
        _ = dkWorld_CreateItems(world, &def, &xs, &ys, &angles, 1, &id, nil)
        _ = dkWorld_FillFloats(world, dkColumnGravityY, &id, gravity, 1, nil)
        var shape = dkDefaultShapeDef()
        shape.item = id
        shape.kind = dkGeometryPolygon
        shape.count = 4
        setVertices(&shape, [-w / 2, w / 2, w / 2, -w / 2], [-h / 2, -h / 2, h / 2, h / 2])
        var sid = dkShapeId()
        precondition(dkWorld_CreateShape(world, &shape, &sid, nil) == dkResultOK)
        return id
    }

    /// A circle of diameter d at (x, y).
    @discardableResult
    func ball(x: Float, y: Float, d: Float, elasticity: Float, gravity: Float = 1000) -> dkItemId {
        var def = dkDefaultItemDef()
        def.shape = dkShapeEllipse
        def.width = d
        def.height = d
        def.elasticity = elasticity
        var id = dkItemId()
        var xs = [x], ys = [y]
        _ = dkWorld_CreateItems(world, &def, &xs, &ys, nil, 1, &id, nil)
        _ = dkWorld_FillFloats(world, dkColumnGravityY, &id, gravity, 1, nil)
        var shape = dkDefaultShapeDef()
        shape.item = id
        shape.kind = dkGeometryCircle
        shape.count = 1
        shape.radius = d / 2
        var sid = dkShapeId()
        precondition(dkWorld_CreateShape(world, &shape, &sid, nil) == dkResultOK)
        return id
    }

    /// A static segment boundary.
    func segment(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float) {
        var shape = dkDefaultShapeDef()
        shape.kind = dkGeometrySegment
        shape.count = 2
        setVertices(&shape, [x0, x1], [y0, y1])
        var sid = dkShapeId()
        precondition(dkWorld_CreateShape(world, &shape, &sid, nil) == dkResultOK)
    }

    func step(_ n: Int, dt: Float = 1.0 / 60) {
        for _ in 0..<n { precondition(dkWorld_Step(world, dt, 4, nil) == dkResultOK) }
    }

    func value(_ column: dkColumn, _ id: dkItemId) -> Float {
        var id = id
        var row: Int32 = -1
        dkWorld_DenseIndices(world, &id, 1, &row)
        return dkWorld_Column(world, column)[Int(row)]
    }
}

/// Writes vertex coordinates into a shape definition's fixed-size arrays.
func setVertices(_ shape: inout dkShapeDef, _ xs: [Float], _ ys: [Float]) {
    shape.count = Int32(xs.count)
    withUnsafeMutableBytes(of: &shape.x) { raw in
        let p = raw.bindMemory(to: Float.self)
        for (i, v) in xs.enumerated() { p[i] = v }
    }
    withUnsafeMutableBytes(of: &shape.y) { raw in
        let p = raw.bindMemory(to: Float.self)
        for (i, v) in ys.enumerated() { p[i] = v }
    }
}
