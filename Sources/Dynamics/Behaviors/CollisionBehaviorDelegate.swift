// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Told when contacts of a ``CollisionBehavior`` begin and end (UIKit's `UICollisionBehaviorDelegate`).
///
/// Calls arrive after each step on the thread that steps the animator, in a deterministic order. Points are
/// in reference coordinates, pt. The boundary identifier is nil for the reference bounds. Every method has
/// a default that does nothing.
public protocol CollisionBehaviorDelegate: AnyObject {
    /// Two items started touching.
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem,
                           with item2: any DynamicItem, at point: CGPoint)
    /// Two items stopped touching.
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem,
                           with item2: any DynamicItem)
    /// An item started touching a boundary.
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?, at point: CGPoint)
    /// An item stopped touching a boundary.
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?)
}

extension CollisionBehaviorDelegate {
    /// Does nothing.
    public func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem,
                                  with item2: any DynamicItem, at point: CGPoint) {}
    /// Does nothing.
    public func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem,
                                  with item2: any DynamicItem) {}
    /// Does nothing.
    public func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                                  withBoundaryIdentifier identifier: AnyHashable?, at point: CGPoint) {}
    /// Does nothing.
    public func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                                  withBoundaryIdentifier identifier: AnyHashable?) {}
}
