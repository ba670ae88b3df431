// SPDX-License-Identifier: Apache-2.0
import Foundation

extension ItemDescription.Shape {
    /// Beyond UIKit: the mass properties of an item whose collision shape is ``CollisionShape/capsule(width:height:)``,
    /// at `density`: mass = density · area / 10 000 and inertia = density · (polar moment about the centre) / 10 000,
    /// exactly (a rectangle and two half-discs). Throws naming the field for a size that is not positive.
    public static func capsule(width: CGFloat, height: CGFloat, density: CGFloat) throws(DynamicsError) -> Self {
        try positive(width, "width")
        try positive(height, "height")
        let r = min(width, height) / 2, half = abs(width - height) / 2
        let core = width >= height ? [CGPoint(x: -half, y: 0), CGPoint(x: half, y: 0)] : [CGPoint(x: 0, y: -half), CGPoint(x: 0, y: half)]
        return rounded(core, radius: r, density: density)
    }

    /// Beyond UIKit: the mass properties of an item whose collision shape is
    /// ``CollisionShape/roundedRectangle(width:height:cornerRadius:)``, exactly (as ``capsule(width:height:density:)``).
    public static func roundedRectangle(width: CGFloat, height: CGFloat, cornerRadius: CGFloat,
                                        density: CGFloat) throws(DynamicsError) -> Self
    {
        try positive(width, "width")
        try positive(height, "height")
        guard cornerRadius.isFinite, cornerRadius >= 0, cornerRadius <= min(width, height) / 2 else {
            throw .invalidValue(field: "cornerRadius", value: Double(cornerRadius), index: nil)
        }
        let (x, y) = (width / 2 - cornerRadius, height / 2 - cornerRadius)
        return rounded([CGPoint(x: -x, y: -y), CGPoint(x: x, y: -y), CGPoint(x: x, y: y), CGPoint(x: -x, y: y)],
                       radius: cornerRadius, density: density)
    }

    /// Beyond UIKit: the mass properties of an item whose collision shape is ``CollisionShape/roundedPolygon(_:radius:)``
    /// (vertices in pt around the item's centre, either winding), exactly: the polygon, a rectangle along each
    /// edge and a circular sector at each corner, with the inertia about their common centroid. Give the item
    /// the same vertices and radius as its shape.
    public static func roundedPolygon(_ vertices: [CGPoint], radius: CGFloat, density: CGFloat) throws(DynamicsError) -> Self {
        try positive(radius, "radius")
        guard (3...16).contains(vertices.count) else {
            throw .invalidValue(field: "vertices (3 to 16)", value: Double(vertices.count), index: nil)
        }
        return rounded(vertices, radius: radius, density: density)
    }

    private static func positive(_ v: CGFloat, _ field: String) throws(DynamicsError) {
        guard v.isFinite, v > 0 else { throw .invalidValue(field: field, value: Double(v), index: nil) }
    }

    /// The compound of the points within `radius` of the convex polygon `core` (two points: a segment).
    static func rounded(_ core: [CGPoint], radius r: CGFloat, density: CGFloat) -> Self {
        let m = roundedMoments(core, radius: r)
        let xs = core.map(\.x), ys = core.map(\.y)
        return .compound(mass: density * m.area / 10_000, inertia: density * m.polar / 10_000,
                         width: (xs.max() ?? 0) - (xs.min() ?? 0) + 2 * r, height: (ys.max() ?? 0) - (ys.min() ?? 0) + 2 * r)
    }

    /// Area (pt²), centroid and polar moment about the centroid (pt⁴) of the points within `r` of the convex
    /// polygon `core` (either winding; two points: a segment): the polygon, each edge's rectangle of width r
    /// outward, and each corner's sector of the angle between its edges' normals (they sum to a full turn).
    static func roundedMoments(_ core: [CGPoint], radius r: CGFloat) -> (area: CGFloat, centroid: CGPoint, polar: CGFloat) {
        var parts: [(area: CGFloat, x: CGFloat, y: CGFloat, own: CGFloat)] = []
        let n = core.count
        var twice: CGFloat = 0
        for k in 0..<n { twice += core[k].x * core[(k + 1) % n].y - core[(k + 1) % n].x * core[k].y }
        if n >= 3 {
            var (cx, cy): (CGFloat, CGFloat) = (0, 0)
            for k in 0..<n {
                let (u, v) = (core[k], core[(k + 1) % n]), cross = u.x * v.y - v.x * u.y
                (cx, cy) = (cx + (u.x + v.x) * cross, cy + (u.y + v.y) * cross)
            }
            let (area, polar) = DynamicBody.polygonMoments(core)
            parts.append((area, cx / (3 * twice), cy / (3 * twice), polar))
        }
        let sign: CGFloat = twice < 0 ? -1 : 1
        // Each edge's outward normal: right of its direction for a positive winding (a segment's two edges
        // run both ways, so their normals are opposite).
        let normals = (0..<n).map { k -> CGPoint in
            let (u, v) = (core[k], core[(k + 1) % n]), length = hypot(v.x - u.x, v.y - u.y)
            return CGPoint(x: sign * (v.y - u.y) / length, y: -sign * (v.x - u.x) / length)
        }
        for k in 0..<n {
            let (u, v, normal) = (core[k], core[(k + 1) % n], normals[k]), length = hypot(v.x - u.x, v.y - u.y)
            parts.append((length * r, (u.x + v.x) / 2 + r / 2 * normal.x, (u.y + v.y) / 2 + r / 2 * normal.y,
                          length * r * (length * length + r * r) / 12))
            // The sector at v, from this edge's normal to the next one's, about its bisector.
            let next = normals[(k + 1) % n], turn = abs(atan2(normal.x * next.y - normal.y * next.x, normal.x * next.x + normal.y * next.y))
            let angle = n == 2 ? CGFloat.pi : turn  // a segment's end turns half a circle
            guard angle > 0 else { continue }  // no corner where the outline goes straight on
            var bx = normal.x + next.x, by = normal.y + next.y, b = hypot(bx, by)
            if b < 1e-9 { (bx, by, b) = (v.x - u.x, v.y - u.y, length) }  // a segment's end: straight on
            let area = angle * r * r / 2, reach = 4 * r * sin(angle / 2) / (3 * angle)
            parts.append((area, v.x + reach * bx / b, v.y + reach * by / b, angle * r * r * r * r / 4 - area * reach * reach))
        }
        let area = parts.reduce(0) { $0 + $1.area }
        let c = CGPoint(x: parts.reduce(0) { $0 + $1.area * $1.x } / area, y: parts.reduce(0) { $0 + $1.area * $1.y } / area)
        let polar = parts.reduce(0) { $0 + $1.own + $1.area * ((($1.x - c.x) * ($1.x - c.x)) + ($1.y - c.y) * ($1.y - c.y)) }
        return (area, c, polar)
    }
}
