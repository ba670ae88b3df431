// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Insets of a rectangle's edges in points (UIKit's `UIEdgeInsets`). Positive insets shrink the rectangle.
public struct EdgeInsets: Hashable, Sendable {
    /// Inset of the top edge, pt.
    public var top: CGFloat
    /// Inset of the left edge, pt.
    public var left: CGFloat
    /// Inset of the bottom edge, pt.
    public var bottom: CGFloat
    /// Inset of the right edge, pt.
    public var right: CGFloat
    /// No insets.
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
    /// Creates insets in points.
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
    }
}
