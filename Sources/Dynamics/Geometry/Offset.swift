// SPDX-License-Identifier: Apache-2.0
import Foundation

/// An offset in points (UIKit's `UIOffset`), e.g. a push's target relative to an item's centre,
/// in the item's own (rotating) coordinates.
public struct Offset: Hashable, Sendable {
    /// Horizontal offset, pt.
    public var horizontal: CGFloat
    /// Vertical offset, pt (+ is down).
    public var vertical: CGFloat
    /// No offset.
    public static let zero = Offset(horizontal: 0, vertical: 0)
    /// Creates an offset in points.
    public init(horizontal: CGFloat, vertical: CGFloat) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
}
