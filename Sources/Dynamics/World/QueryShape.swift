// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Beyond UIKit: a region to ask a ``DynamicWorld`` about, in world coordinates (pt).
public enum QueryShape: Hashable, Sendable {
    /// A point.
    case point(CGPoint)
    /// A circle of `radius` pt (≥ 0) about `center`.
    case circle(center: CGPoint, radius: CGFloat)
    /// An axis-aligned rectangle (a negative width or height is taken as its standardized rectangle).
    case rectangle(CGRect)
    /// A convex polygon of 3…16 points in order (either winding), or a segment of 2, grown by `radius` pt (≥ 0):
    /// its corners rounded; a segment with a radius is a capsule.
    case polygon([CGPoint], radius: CGFloat = 0)

    /// The points and radius the kernel takes.
    var kernelPoints: (points: [CGPoint], radius: CGFloat) {
        switch self {
        case let .point(p): ([p], 0)
        case let .circle(center, radius): ([center], radius)
        case let .rectangle(rect):
            ([CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
              CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)], 0)
        case let .polygon(points, radius): (points, radius)
        }
    }
}
