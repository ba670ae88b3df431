// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Beyond UIKit: where a ray enters an item's or a boundary's shape.
public struct RayHit: Hashable, Sendable {
    /// What the ray entered.
    public let party: ContactEvent.Party
    /// Where along the ray: 0 at its start, 1 at its end.
    public let fraction: CGFloat
    /// The entry point (pt).
    public let point: CGPoint
    /// The shape's outward unit normal at the entry point.
    public let normal: CGVector
}
