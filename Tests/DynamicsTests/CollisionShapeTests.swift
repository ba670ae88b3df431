// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// Item shapes: polygons from `collisionBoundingPath`, ellipses and groups, against closed forms
/// (the Units and semantics article, Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md:
/// m = density · area / 10 000; inertia exact about the centroid).
@Suite struct CollisionShapeTests {
    /// A regular hexagon of circumradius r about the origin, with flat top and bottom edges.
    static func hexagon(_ r: CGFloat, clockwise: Bool) -> [CGPoint] {
        let angles = (0..<6).map { CGFloat($0) * .pi / 3 }
        return (clockwise ? angles.reversed() : angles).map { CGPoint(x: r * cos($0), y: r * sin($0)) }
    }

    /// A regular hexagon of circumradius r: area (3√3/2)·r², polar moment (5√3/8)·r⁴ (six equilateral triangles,
    /// parallel axes).
    static func hexagonMass(_ r: Double) -> (mass: Double, inertia: Double) {
        (1.5 * 3.0.squareRoot() * r * r / 10_000, 5 * 3.0.squareRoot() / 8 * r * r * r * r / 10_000)
    }

    /// An item's mass and inertia as an instantaneous push measures them: P = 2 at 30 pt from the centre, square
    /// to the offset, gives Δv = 100·P/m and Δω = 100·(30·P)/I (Units and semantics).
    static func measured(_ item: any DynamicItem) -> (mass: Double, inertia: Double) {
        let animator = makeAnimator()
        let push = PushBehavior(items: [item], mode: .instantaneous)
        push.pushDirection = CGVector(dx: 0, dy: 2)
        push.setTargetOffsetFromCenter(Offset(horizontal: 30, vertical: 0), for: item)
        let probe = DynamicItemBehavior(items: [item])
        animator.addBehavior(push)
        animator.addBehavior(probe)
        animator.step(by: 1.0 / 60)
        return (100 * 2 / probe.linearVelocity(for: item).y, 100 * 60 / probe.angularVelocity(for: item))
    }

    @Test("a path item has its polygon's mass and inertia, in either winding", arguments: [false, true])
    func pathMass(clockwise: Bool) {
        let body = DynamicBody(center: CGPoint(x: 500, y: 500), size: CGSize(width: 100, height: 100),
                               collisionBoundsType: .path,
                               collisionBoundingPath: closedPath(Self.hexagon(50, clockwise: clockwise)))
        let (mass, inertia) = Self.measured(body)
        let expected = Self.hexagonMass(50)
        #expect(relativeError(mass, expected.mass) < 1e-5, "mass \(mass)")
        #expect(relativeError(inertia, expected.inertia) < 1e-5, "inertia \(inertia)")
    }

    @Test("a non-square ellipse item has mass π·w·h/4 and inertia m(a² + b²)/4")
    func ellipseMass() {
        let body = DynamicBody(center: CGPoint(x: 500, y: 500), size: CGSize(width: 200, height: 100),
                               collisionBoundsType: .ellipse)
        let (mass, inertia) = Self.measured(body)
        let m = Double.pi * 200 * 100 / 4 / 10_000
        #expect(relativeError(mass, m) < 1e-5, "mass \(mass)")
        #expect(relativeError(inertia, m * (100.0 * 100 + 50 * 50) / 4) < 1e-5, "inertia \(inertia)")
    }

    @Test("a group's path and ellipse members count with their own shapes' mass and inertia")
    func groupMass() {
        let hexagon = DynamicBody(center: CGPoint(x: 400, y: 500), size: CGSize(width: 100, height: 100),
                                  collisionBoundsType: .path,
                                  collisionBoundingPath: closedPath(Self.hexagon(50, clockwise: false)))
        let disc = DynamicBody(center: CGPoint(x: 600, y: 500), size: CGSize(width: 100, height: 100),
                               collisionBoundsType: .ellipse)
        let (mass, inertia) = Self.measured(DynamicItemGroup(items: [hexagon, disc]))
        let h = Self.hexagonMass(50), d = (mass: Double.pi / 4, inertia: Double.pi / 4 * 2500 / 2)
        let total = h.mass + d.mass
        // The centre of mass lies on the line between the members; parallel axes add m·d² for each.
        let cx = (400 * h.mass + 600 * d.mass) / total
        let expected = h.inertia + d.inertia + h.mass * (400 - cx) * (400 - cx) + d.mass * (600 - cx) * (600 - cx)
        #expect(relativeError(mass, total) < 1e-5, "mass \(mass)")
        #expect(relativeError(inertia, expected) < 1e-5, "inertia \(inertia)")
    }

    @Test("a hexagon path rests on its flat edge, r·√3/2 above the floor, in either winding", arguments: [false, true])
    func pathCollides(clockwise: Bool) {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        let a = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1000, height: 1000), configuration: c)
        // The bounds are 100 × 100, so a rectangle would rest 50 pt above the floor; the hexagon rests 43.3 pt above.
        let body = DynamicBody(center: CGPoint(x: 500, y: 800), size: CGSize(width: 100, height: 100),
                               collisionBoundsType: .path,
                               collisionBoundingPath: closedPath(Self.hexagon(50, clockwise: clockwise)))
        let collision = CollisionBehavior(items: [body])
        collision.translatesReferenceBoundsIntoBoundary = true
        a.addBehavior(GravityBehavior(items: [body]))
        a.addBehavior(collision)
        a.step(by: 2)
        let height = 1000 - body.center.y
        #expect(abs(height - 25 * 3.0.squareRoot()) < 0.5, "rests \(height) pt above the floor")
        #expect(abs(body.rotation) < 1e-3, "turned by \(body.rotation)")
    }

    @Test("a path with a repeated vertex and a vertex mid-edge is the same square")
    func redundantVertices() throws {
        let world = try DynamicWorld()
        let ids = try world.createItems(ItemDescription(), at: [CGPoint(x: 0, y: 0)])
        let square = [CGPoint(x: -50, y: -50), CGPoint(x: 0, y: -50), CGPoint(x: 50, y: -50), CGPoint(x: 50, y: -50),
                      CGPoint(x: 50, y: 50), CGPoint(x: -50, y: 50)]
        try world.addCollisionShape(.polygon(square), to: ids)
        let floor = try world.createItems(ItemDescription(shape: .rectangle(width: 1000, height: 100)),
                                          at: [CGPoint(x: 0, y: 100.5)])
        try world.addCollisionShape(.rectangle(width: 1000, height: 100), to: floor)
        try world.step(count: 1)
        #expect(world.contactCount == 1)
    }

    @Test("DynamicWorld rejects a concave, a self-intersecting and a 17-vertex polygon, naming the field, and adds nothing",
          arguments: [
              [CGPoint(x: -50, y: -50), CGPoint(x: 0, y: 0), CGPoint(x: 50, y: -50), CGPoint(x: 50, y: 50),
               CGPoint(x: -50, y: 50)],
              [CGPoint(x: -50, y: -50), CGPoint(x: 50, y: 50), CGPoint(x: 50, y: -50), CGPoint(x: -50, y: 50)],
              (0..<17).map { CGPoint(x: 50 * cos(Double($0) * 2 * .pi / 17), y: 50 * sin(Double($0) * 2 * .pi / 17)) },
          ])
    func badPolygons(points: [CGPoint]) throws {
        let world = try DynamicWorld()
        let ids = try world.createItems(ItemDescription(), at: [CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 90)])
        let error = #expect(throws: DynamicsError.self) { try world.addCollisionShape(.polygon(points), to: ids) }
        #expect(error?.description.hasPrefix("invalid value for collisionBoundingPath") == true, "\(String(describing: error))")
        try world.step(count: 1)
        #expect(world.contactCount == 0, "the overlapping items got shapes")
    }

    @Test("an item whose collisionBoundingPath is concave traps with a message naming the item")
    func concavePathTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let arrow = [CGPoint(x: -50, y: -50), CGPoint(x: 0, y: 0), CGPoint(x: 50, y: -50), CGPoint(x: 50, y: 50),
                         CGPoint(x: -50, y: 50)]
            let path = BezierPath()
            path.move(to: arrow[0])
            for p in arrow.dropFirst() { path.addLine(to: p) }
            path.close()
            let body = DynamicBody(center: CGPoint(x: 123, y: 456), size: CGSize(width: 100, height: 100),
                                   collisionBoundsType: .path, collisionBoundingPath: path)
            let a = DynamicAnimator()
            a.addBehavior(CollisionBehavior(items: [body]))
            a.step(by: 1.0 / 60)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("collisionBoundingPath of DynamicBody at (123.0, 456.0)"), "\(message)")
        #expect(message.contains("concave or self-intersecting"), "\(message)")
    }
}
