// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Geometry checks of scene files.
enum SceneGeometry {
    /// Why `points` is not a convex polygon of 3…16 vertices with area, or nil when it is one.
    static func convexityProblem(_ points: [CGPoint]) -> String? {
        guard (3...16).contains(points.count) else { return "a polygon needs 3 to 16 points, got \(points.count)" }
        var sign: CGFloat = 0
        var turning: CGFloat = 0
        for k in points.indices {
            let a = points[k], b = points[(k + 1) % points.count], c = points[(k + 2) % points.count]
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross > 0 ? 1 : -1 }
            if cross * sign < 0 { return "the polygon is concave at point \((k + 1) % points.count)" }
            turning += atan2(cross, (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y))
        }
        if sign == 0 { return "the polygon's points are collinear (no area)" }
        // A convex polygon turns once around; a self-intersecting one that never turns back turns more.
        if abs(turning) > 2 * .pi + 1e-6 { return "the polygon intersects itself" }
        return nil
    }
}
