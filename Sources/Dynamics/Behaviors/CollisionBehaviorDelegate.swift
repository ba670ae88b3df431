// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Told when contacts of a ``CollisionBehavior`` begin and end (UIKit's `UICollisionBehaviorDelegate`).
///
/// Calls arrive after each step on the thread that steps the animator, in a deterministic order. Points are
/// in reference coordinates, pt. The boundary identifier is nil for the reference bounds. Every method has
/// a default that does nothing.
///
/// The boundary methods come in two spellings, and both are called: with an `AnyHashable?` identifier (the
/// Swift form) and with UIKit's `NSCopying?` identifier, so a delegate ported from UIKit by renaming types
/// works unchanged. Implement one of the two. In the `NSCopying` form a `String` identifier arrives as an
/// `NSString` (`identifier as? NSString == "floor"`), an `NSObject` as itself, and any other value in a
/// box whose `value` is the identifier as added.
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
    /// An item started touching a boundary: UIKit's signature, with an `NSCopying?` identifier.
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: NSCopying?, at point: CGPoint)
    /// An item stopped touching a boundary: UIKit's signature, with an `NSCopying?` identifier.
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: NSCopying?)
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
    /// Does nothing.
    public func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                                  withBoundaryIdentifier identifier: NSCopying?, at point: CGPoint) {}
    /// Does nothing.
    public func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                                  withBoundaryIdentifier identifier: NSCopying?) {}
}
