// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// Capsules, rounded rectangles and rounded polygons (beyond UIKit): their masses and inertias against closed
/// forms and a numerical integration, and their collisions against the heights and distances they must rest at.
@Suite struct RoundedShapeTests {
    func mass(_ shape: ItemDescription.Shape) -> (mass: CGFloat, inertia: CGFloat) {
        guard case let .compound(m, i, _, _) = shape else { return (0, 0) }
        return (m, i)
    }

    @Test("a capsule's mass and inertia: a rectangle and two half-discs")
    func capsuleMass() throws {
        let (r, l, density): (CGFloat, CGFloat, CGFloat) = (25, 50, 2)
        let area = 2 * r * l + .pi * r * r
        // The rectangle's polar moment, the two half-discs' about their centroids 4r/3π from the core's ends,
        // moved to the centre: 2rL(L² + 4r²)/12 + πr⁴/2 + πr²L²/4 + 4r³L/3.
        let polar = 2 * r * l * (l * l + 4 * r * r) / 12 + .pi * pow(r, 4) / 2 + .pi * r * r * l * l / 4 + 4 * pow(r, 3) * l / 3
        for shape in [try ItemDescription.Shape.capsule(width: 100, height: 50, density: density),
                      try ItemDescription.Shape.capsule(width: 50, height: 100, density: density)] {
            let (m, i) = mass(shape)
            #expect(abs(m - density * area / 10_000) < 1e-9 * m, "mass \(m)")
            #expect(abs(i - density * polar / 10_000) < 1e-9 * i, "inertia \(i)")
        }
    }

    @Test("a rounded rectangle's mass and inertia: the core, four edge strips and four quarter discs")
    func roundedRectangleMass() throws {
        let (w, h, r): (CGFloat, CGFloat, CGFloat) = (120, 70, 15)
        let (a, b) = (w - 2 * r, h - 2 * r)
        let area = a * b + 2 * r * (a + b) + .pi * r * r
        let strips = 2 * (a * r * (a * a + r * r) / 12 + a * r * pow(b / 2 + r / 2, 2)) +
            2 * (r * b * (r * r + b * b) / 12 + r * b * pow(a / 2 + r / 2, 2))
        let quarters = .pi * pow(r, 4) / 2 + .pi * r * r * (a * a + b * b) / 4 + 4 * pow(r, 3) * (a + b) / 3
        let polar = a * b * (a * a + b * b) / 12 + strips + quarters
        let (m, i) = mass(try ItemDescription.Shape.roundedRectangle(width: w, height: h, cornerRadius: r, density: 1))
        #expect(abs(m - area / 10_000) < 1e-9 * m && abs(i - polar / 10_000) < 1e-9 * i, "\(m), \(i)")
        #expect(throws: DynamicsError.invalidValue(field: "cornerRadius", value: 36, index: nil)) {
            _ = try ItemDescription.Shape.roundedRectangle(width: w, height: h, cornerRadius: 36, density: 1)
        }
    }

    @Test("a rounded triangle's mass, centroid and inertia match a numerical integration over a fine grid")
    func roundedPolygonMass() throws {
        let core = [CGPoint(x: -40, y: 30), CGPoint(x: 50, y: 20), CGPoint(x: -10, y: -45)], r: CGFloat = 12
        let (m, i) = mass(try ItemDescription.Shape.roundedPolygon(core, radius: r, density: 1))
        // The oracle: points of a 0.25 pt grid within r of the triangle (inside it, or near an edge).
        func distance(_ p: CGPoint) -> CGFloat {
            var inside = true, nearest = CGFloat.infinity
            for k in 0..<3 {
                let (u, v) = (core[k], core[(k + 1) % 3]), (ex, ey) = (v.x - u.x, v.y - u.y)
                if ex * (p.y - u.y) - ey * (p.x - u.x) > 0 { inside = false }  // this winding turns negatively
                let t = max(0, min(1, ((p.x - u.x) * ex + (p.y - u.y) * ey) / (ex * ex + ey * ey)))
                nearest = min(nearest, hypot(p.x - u.x - t * ex, p.y - u.y - t * ey))
            }
            return inside ? 0 : nearest
        }
        let step: CGFloat = 0.25
        var (count, sx, sy, sxx): (Double, Double, Double, Double) = (0, 0, 0, 0)
        for gx in stride(from: -55 as CGFloat, through: 65, by: step) {
            for gy in stride(from: -60 as CGFloat, through: 45, by: step) where distance(CGPoint(x: gx, y: gy)) <= r {
                count += 1
                sx += gx
                sy += gy
                sxx += gx * gx + gy * gy
            }
        }
        let area = count * step * step, (cx, cy) = (sx / count, sy / count)
        let polar = (sxx / count - cx * cx - cy * cy) * area
        #expect(abs(m * 10_000 - area) < 1e-3 * area, "area \(m * 10_000), grid \(area)")
        #expect(abs(i * 10_000 - polar) < 2e-3 * polar, "polar moment \(i * 10_000), grid \(polar)")
    }

    /// A world with a boundary floor at y = 0 and gravity on what is created in it.
    func floorWorld(simd: SIMDLevel = .automatic, workers: Int = 1) throws -> DynamicWorld {
        let w = try restlessWorld(workers: workers, simd: simd)
        try w.addBoundary(from: CGPoint(x: -2000, y: 0), to: CGPoint(x: 2000, y: 0))
        return w
    }

    func drop(_ shape: CollisionShape, _ mass: ItemDescription.Shape, in w: DynamicWorld, at p: CGPoint, angle: CGFloat = 0) throws -> ItemID {
        var d = ItemDescription(shape: mass)
        d.friction = 0.6
        let id = try w.createItems(d, at: [p], angles: [angle])[0]
        try w.addCollisionShape(shape, to: [id])
        try w.setGravity(CGVector(dx: 0, dy: 1000), for: [id])
        return id
    }

    @Test("a capsule and a rounded box settle on a floor at their radii and half heights", arguments: [SIMDLevel.automatic, .scalar])
    func resting(simd: SIMDLevel) throws {
        let w = try floorWorld(simd: simd)
        let capsule = try drop(.capsule(width: 100, height: 40), try .capsule(width: 100, height: 40, density: 1), in: w,
                               at: CGPoint(x: -300, y: -100))
        let upright = try drop(.capsule(width: 30, height: 90), try .capsule(width: 30, height: 90, density: 1), in: w,
                               at: CGPoint(x: 0, y: -100))
        let box = try drop(.roundedRectangle(width: 100, height: 60, cornerRadius: 10),
                           try .roundedRectangle(width: 100, height: 60, cornerRadius: 10, density: 1), in: w, at: CGPoint(x: 300, y: -100))
        try w.step(count: 180)
        // Resting contacts overlap by about the linear slop (0.5 pt).
        for (id, height) in [(capsule, 20.0), (upright, 45.0), (box, 30.0)] {
            let p = w.pose(of: id)
            #expect(abs(p.center.y + height) < 1, "centre at \(p.center.y), expected \(-height)")
            #expect(abs(p.angle) < 1e-3, "angle \(p.angle)")
        }
    }

    @Test("a capsule thrown end first stops at the other's round end: the corners' single contact")
    func endToEnd() throws {
        let w = try restlessWorld()
        var anchored = ItemDescription()
        anchored.isAnchored = true
        let wall = try w.createItems(anchored, at: [.zero])[0]
        let moving = try w.createItems(ItemDescription(shape: try .capsule(width: 120, height: 30, density: 1)), at: [CGPoint(x: -300, y: 0)])[0]
        try w.addCollisionShape(.capsule(width: 100, height: 40), to: [wall])
        try w.addCollisionShape(.capsule(width: 120, height: 30), to: [moving])
        try w.setVelocities([CGVector(dx: 300, dy: 0)], for: [moving])
        try w.step(count: 90)
        // Touching end to end, the centres are the half lengths apart: 50 + 60 pt.
        let gap = -w.pose(of: moving).center.x
        #expect(abs(gap - 110) < 1, "the centres are \(gap) pt apart")
        #expect(abs(w.pose(of: moving).center.y) < 1e-3 && abs(w.velocity(of: moving).dx) < 1)
    }

    @Test("a circle rests on a rounded triangle's top corner and on a capsule's flat side")
    func circleOnRounded() throws {
        let w = try restlessWorld()
        var anchored = ItemDescription()
        anchored.isAnchored = true
        let posts = try w.createItems(anchored, at: [.zero, CGPoint(x: 400, y: 0)])
        try w.addCollisionShape(.roundedPolygon([CGPoint(x: -50, y: 40), CGPoint(x: 50, y: 40), CGPoint(x: 0, y: -40)], radius: 10),
                                to: [posts[0]])
        try w.addCollisionShape(.capsule(width: 200, height: 20), to: [posts[1]])
        let balls = try w.createItems(ItemDescription(shape: .ellipse(width: 30, height: 30)), at: [CGPoint(x: 0, y: -100), CGPoint(x: 400, y: -100)])
        try w.addCollisionShape(.circle(radius: 15), to: balls)
        try w.setGravity(CGVector(dx: 0, dy: 1000), for: balls)
        try w.step(count: 120)
        // On the corner (0, −40) grown by 10: the centre 25 pt above it; on the capsule: 10 + 15 above its axis.
        #expect(abs(w.pose(of: balls[0]).center.y + 65) < 1 && abs(w.pose(of: balls[0]).center.x) < 1e-2)
        #expect(abs(w.pose(of: balls[1]).center.y + 25) < 1)
    }

    @Test("a pile of capsules, rounded boxes and circles gives the same bits at 1 and 2 workers and on the scalar path")
    func determinism() throws {
        var hashes: Set<UInt64> = []
        for (workers, simd) in [(1, SIMDLevel.automatic), (2, .automatic), (2, .scalar)] {
            let w = try floorWorld(simd: simd, workers: workers)
            for k in 0..<120 {
                let p = CGPoint(x: -300 + 60 * Double(k % 10), y: -80 - 60 * Double(k / 10))
                switch k % 3 {
                case 0: _ = try drop(.capsule(width: 50, height: 20), try .capsule(width: 50, height: 20, density: 1), in: w, at: p, angle: 0.3)
                case 1: _ = try drop(.roundedRectangle(width: 40, height: 30, cornerRadius: 6),
                                     try .roundedRectangle(width: 40, height: 30, cornerRadius: 6, density: 1), in: w, at: p)
                default: _ = try drop(.circle(radius: 15), .ellipse(width: 30, height: 30), in: w, at: p)
                }
            }
            try w.step(count: 120)
            hashes.insert(w.stateHash())
        }
        #expect(hashes.count == 1, "\(hashes.count) different states")
    }
}
