// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicItem {
    /// The collision outline's area (pt²) and its polar second moment (pt⁴) about the item's centre of mass,
    /// per <doc:UnitsAndSemantics>: a rectangle w·h and w·h·(w² + h²)/12, the inscribed ellipse π·w·h/4 and
    /// area·(w² + h²)/16, a `.path` polygon by the shoelace formulas (about its centroid). Times density / 10 000
    /// they are the mass and the inertia. A path that encloses no area gives (0, 0).
    var areaMoments: (area: CGFloat, polar: CGFloat) {
        let (w, h) = (bounds.width, bounds.height)
        switch collisionBoundsType {
        case .rectangle: return (w * h, w * h * (w * w + h * h) / 12)
        case .ellipse: return (.pi * w * h / 4, .pi * w * h / 4 * (w * w + h * h) / 16)
        case .path: return Self.polygonMoments(pathOutline)
        }
    }

    /// The vertices of the first closed subpath of `collisionBoundingPath` (else of its first subpath), pt,
    /// relative to the centre; a last vertex that repeats the first is dropped.
    var pathOutline: [CGPoint] {
        let lines = collisionBoundingPath.polylines()
        var points = (lines.first { $0.closed } ?? lines.first)?.points ?? []
        if points.count > 3, points.first == points.last { points.removeLast() }
        return points
    }

    /// Area (pt²) and polar second moment about the centroid (pt⁴) of a simple polygon, either winding.
    static func polygonMoments(_ p: [CGPoint]) -> (area: CGFloat, polar: CGFloat) {
        var (a, cx, cy, i0): (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 0)
        for k in p.indices {
            let (u, v) = (p[k], p[(k + 1) % p.count])
            let cross = u.x * v.y - v.x * u.y
            a += cross
            cx += (u.x + v.x) * cross
            cy += (u.y + v.y) * cross
            i0 += cross * (u.x * u.x + u.x * v.x + v.x * v.x + u.y * u.y + u.y * v.y + v.y * v.y)
        }
        let sign: CGFloat = a < 0 ? -1 : 1
        let area = abs(a) / 2
        guard area > 0 else { return (0, 0) }
        let (gx, gy) = (cx / (3 * a), cy / (3 * a))
        return (area, sign * i0 / 12 - area * (gx * gx + gy * gy))
    }
}
