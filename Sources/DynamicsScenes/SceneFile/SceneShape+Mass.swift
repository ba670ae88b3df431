// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneShape {
    /// Mass (density · area / 10 000) and inertia about the shape's own centre (mass·pt²) of a single
    /// shape: a rectangle m(w² + h²)/12, an ellipse m(w² + h²)/16, a polygon by the shoelace formulas.
    func massProperties(density: CGFloat) -> (mass: CGFloat, inertia: CGFloat) {
        switch self {
        case .rectangle(let w, let h):
            let m = density * w * h / 10_000
            return (m, m * (w * w + h * h) / 12)
        case .ellipse(let w, let h):
            let m = density * .pi * w * h / 4 / 10_000
            return (m, m * (w * w + h * h) / 16)
        case .polygon(let points):
            if case .compound(let m, let i, _, _) = ItemDescription.Shape.polygon(points, density: density) { return (m, i) }
            return (0, 0)
        case .capsule(let w, let h):
            if case .compound(let m, let i, _, _) = try? ItemDescription.Shape.capsule(width: w, height: h, density: density) { return (m, i) }
            return (0, 0)
        case .roundedRectangle(let w, let h, let r):
            if case .compound(let m, let i, _, _) = try? ItemDescription.Shape.roundedRectangle(width: w, height: h, cornerRadius: r,
                                                                                                  density: density) { return (m, i) }
            return (0, 0)
        case .roundedPolygon(let points, let r):
            if case .compound(let m, let i, _, _) = try? ItemDescription.Shape.roundedPolygon(points, radius: r, density: density) { return (m, i) }
            return (0, 0)
        case .group:
            let g = compound(density: density)
            return (g.mass, g.inertia)
        }
    }

    /// The parts of a group (a single shape is one part at the origin).
    public var parts: [SceneShapePart] {
        if case .group(let parts) = self { return parts }
        return [SceneShapePart(shape: self, offset: .zero)]
    }

    /// A group's total mass, its inertia about its centre of mass (parallel axes) and that centre relative
    /// to the item's `center` (zero for a single shape).
    func compound(density: CGFloat) -> (mass: CGFloat, inertia: CGFloat, centerOfMass: CGPoint) {
        guard case .group(let parts) = self else {
            let p = massProperties(density: density)
            return (p.mass, p.inertia, .zero)
        }
        let each = parts.map { $0.shape.massProperties(density: density) }
        let total = each.reduce(0) { $0 + $1.mass }
        guard total > 0 else { return (0, 0, .zero) }
        let cx = zip(parts, each).reduce(0) { $0 + $1.1.mass * $1.0.offset.x } / total
        let cy = zip(parts, each).reduce(0) { $0 + $1.1.mass * $1.0.offset.y } / total
        let inertia = zip(parts, each).reduce(0) { sum, pair in
            let (dx, dy) = (pair.0.offset.x - cx, pair.0.offset.y - cy)
            return sum + pair.1.inertia + pair.1.mass * (dx * dx + dy * dy)
        }
        return (total, inertia, CGPoint(x: cx, y: cy))
    }

    /// The centre of mass relative to the item's `center` (zero for a single shape; the parts share one
    /// density, so it does not depend on it).
    public var centerOfMass: CGPoint { compound(density: 1).centerOfMass }

    /// The outline's corners (an ellipse as 16 points on it), one polygon per part, in the item's frame
    /// relative to its `center`.
    public var outlines: [[CGPoint]] {
        parts.map { part in
            let local: [CGPoint]
            switch part.shape {
            case .rectangle(let w, let h):
                local = [CGPoint(x: -w / 2, y: -h / 2), CGPoint(x: w / 2, y: -h / 2), CGPoint(x: w / 2, y: h / 2), CGPoint(x: -w / 2, y: h / 2)]
            case .ellipse(let w, let h):
                local = (0..<16).map { k in
                    let a = CGFloat(k) * .pi / 8
                    return CGPoint(x: w / 2 * cos(a), y: h / 2 * sin(a))
                }
            case .polygon(let points): local = points
            case .capsule(let w, let h):
                let r = min(w, h) / 2, half = abs(w - h) / 2
                local = Self.roundedOutline(w >= h ? [CGPoint(x: -half, y: 0), CGPoint(x: half, y: 0)]
                                                   : [CGPoint(x: 0, y: -half), CGPoint(x: 0, y: half)], radius: r)
            case .roundedRectangle(let w, let h, let r):
                let (x, y) = (w / 2 - r, h / 2 - r)
                local = Self.roundedOutline([CGPoint(x: -x, y: -y), CGPoint(x: x, y: -y), CGPoint(x: x, y: y), CGPoint(x: -x, y: y)],
                                            radius: r)
            case .roundedPolygon(let points, let r): local = Self.roundedOutline(points, radius: r)
            case .group: local = []
            }
            let (s, c) = (sin(part.angle), cos(part.angle))
            return local.map { CGPoint(x: part.offset.x + c * $0.x - s * $0.y, y: part.offset.y + s * $0.x + c * $0.y) }
        }
    }

    /// The outline of the points within `r` of a convex polygon (two points: a segment), for drawing: each
    /// corner's arc in steps of at most 15° from one edge's outward normal to the next's. Repeated points (a
    /// radius of 0, or corners that coincide) are left out.
    static func roundedOutline(_ core: [CGPoint], radius r: CGFloat) -> [CGPoint] {
        let n = core.count
        var twice: CGFloat = 0
        for k in 0..<n { twice += core[k].x * core[(k + 1) % n].y - core[(k + 1) % n].x * core[k].y }
        let sign: CGFloat = twice < 0 ? -1 : 1
        func normal(_ k: Int) -> CGFloat {  // the angle of edge k's outward normal
            let (u, v) = (core[k], core[(k + 1) % n])
            return atan2(-sign * (v.x - u.x), sign * (v.y - u.y))
        }
        var points: [CGPoint] = []
        for k in 0..<n {  // the corner at vertex k + 1, from edge k's normal to edge k + 1's
            let v = core[(k + 1) % n], from = normal(k)
            var sweep = normal((k + 1) % n) - from
            if n == 2 { sweep = sign * .pi } else {
                while sweep * sign < 0 { sweep += sign * 2 * .pi }
                while abs(sweep) > 2 * .pi { sweep -= sign * 2 * .pi }
            }
            let steps = r > 0 ? max(1, Int((abs(sweep) / (.pi / 12)).rounded(.up))) : 0
            for s in 0...steps {
                let a = from + sweep * CGFloat(s) / CGFloat(max(steps, 1))
                let p = CGPoint(x: v.x + r * cos(a), y: v.y + r * sin(a))
                if points.last.map({ hypot($0.x - p.x, $0.y - p.y) > 1e-9 }) ?? true { points.append(p) }
            }
        }
        return points
    }

    /// The extent of the outlines: width and height of their bounding box, pt.
    var extent: CGSize {
        let points = outlines.flatMap { $0 }
        let xs = points.map(\.x), ys = points.map(\.y)
        return CGSize(width: (xs.max() ?? 0) - (xs.min() ?? 0), height: (ys.max() ?? 0) - (ys.min() ?? 0))
    }
}
