// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Beyond UIKit: a named region of a scene (the file's `regions`), whose items' comings and goings a run
/// counts: an item is in the region while its centre is. ``SceneRun`` reports the items that entered and left it at
/// each step (`simulate --events`), how many are in it, and how many entries it has seen (sweep metrics
/// `{count: REGION}` and `{throughput: REGION}`).
public struct SceneNamedRegion: Hashable, Sendable {
    /// The region's outline, in world coordinates (pt).
    public enum Shape: Hashable, Sendable {
        /// A rectangle, its edges included.
        case rectangle(CGRect)
        /// A circle of `radius` pt about `center`, its edge included.
        case circle(center: CGPoint, radius: Double)
        /// The inside of a closed path of 3 or more points (the even-odd rule: it may be concave).
        case path([CGPoint])
    }

    /// The region's name, unique in its document.
    public var id: String
    /// Its outline.
    public var shape: Shape

    /// A region.
    public init(id: String, shape: Shape) {
        self.id = id
        self.shape = shape
    }

    /// Whether point p (pt) lies in the region.
    public func contains(_ p: CGPoint) -> Bool {
        switch shape {
        case .rectangle(let r):
            return p.x >= r.minX && p.x <= r.maxX && p.y >= r.minY && p.y <= r.maxY
        case .circle(let c, let radius):
            let dx = Double(p.x - c.x), dy = Double(p.y - c.y)
            return dx * dx + dy * dy <= radius * radius
        case .path(let points):
            var inside = false
            var j = points.count - 1
            for i in points.indices {
                let a = points[i], b = points[j]
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                j = i
            }
            return inside
        }
    }
}

/// An item entering or leaving a named region during a step of a ``SceneRun``.
public struct SceneRegionEvent: Hashable, Sendable {
    /// The region's id.
    public var region: String
    /// The item's place in ``SceneRun/itemNames``.
    public var item: Int
    /// True when it entered, false when it left.
    public var entered: Bool

    /// An event.
    public init(region: String, item: Int, entered: Bool) {
        self.region = region
        self.item = item
        self.entered = entered
    }
}
