// SPDX-License-Identifier: Apache-2.0
import Foundation

extension CollisionShape {
    /// Points closer than this are one point of a hull, and a point within it of the line through its
    /// neighbours is not a corner, pt (Box2D's linear slop, 0.005 m, at 100 pt per metre).
    public static let hullTolerance: CGFloat = 0.5

    /// Beyond UIKit: the convex polygon around 3…16 points (any order; duplicates and points inside are
    /// dropped), in the item's own frame, pt, counterclockwise in a y-up frame, as Box2D's `b2ComputeHull`
    /// makes it: points closer than ``hullTolerance`` are welded and corners within it of a straight line are
    /// dropped. Throws ``DynamicsError/invalidValue(field:value:index:)`` naming `points` when there are fewer
    /// than 3 or more than 16 points, one is not finite or beyond ±10⁷ pt, or no three of them make a
    /// triangle wider than the tolerance.
    public static func hull(of points: [CGPoint]) throws(DynamicsError) -> CollisionShape {
        guard (3...16).contains(points.count) else {
            throw .invalidValue(field: "points (3 to 16)", value: Double(points.count), index: nil)
        }
        for (k, p) in points.enumerated() {
            for v in [p.x, p.y] where !v.isFinite || abs(v) > 1e7 {
                throw .invalidValue(field: "points", value: Double(v), index: k)
            }
        }
        let corners = convexHull(points)
        guard corners.count >= 3 else {
            throw .invalidValue(field: "points (all on one line)", value: Double(corners.count), index: nil)
        }
        return .polygon(corners)
    }

    /// The hull's corners, counterclockwise from the lowest-leftmost point (Andrew's monotone chain on the
    /// welded points), without corners within ``hullTolerance`` of the line through their neighbours.
    static func convexHull(_ points: [CGPoint]) -> [CGPoint] {
        var welded: [CGPoint] = []
        for p in points where !welded.contains(where: { hypot($0.x - p.x, $0.y - p.y) < hullTolerance }) {
            welded.append(p)
        }
        let sorted = welded.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard sorted.count >= 3 else { return sorted }
        func cross(_ o: CGPoint, _ a: CGPoint, _ b: CGPoint) -> CGFloat {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        func chain(_ ordered: [CGPoint]) -> [CGPoint] {
            var out: [CGPoint] = []
            for p in ordered {
                while out.count >= 2, cross(out[out.count - 2], out[out.count - 1], p) <= 0 { out.removeLast() }
                out.append(p)
            }
            return out
        }
        let lower = chain(sorted), upper = chain(sorted.reversed())
        var hull = Array(lower.dropLast()) + Array(upper.dropLast())
        // Corners that lie within the tolerance of the line through their neighbours are not corners.
        var removed = true
        while removed && hull.count >= 3 {
            removed = false
            for k in hull.indices {
                let a = hull[(k + hull.count - 1) % hull.count], b = hull[k], c = hull[(k + 1) % hull.count]
                let length = hypot(c.x - a.x, c.y - a.y)
                if length == 0 || abs(cross(a, b, c)) / length < hullTolerance {
                    hull.remove(at: k)
                    removed = true
                    break
                }
            }
        }
        return hull
    }
}
