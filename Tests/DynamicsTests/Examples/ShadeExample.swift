// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// The pull-down shade, written as its UIKit version is (types renamed, the shade a `DynamicBody`): a
/// screen-sized shade sits above the screen with its bottom 40 pt showing, held by a spring attachment at
/// its bottom edge; pulling the anchor down brings the shade down until it lands on the bottom of the
/// reference bounds (the collision boundary is inset upward so the shade can hide above the screen), which
/// the delegate hears as a contact with the boundary whose identifier is nil; pulling it up hides it again.
///
/// Differences from the UIKit version: `DynamicAnimator(referenceBounds:)`, `DynamicBody(frame:)`, and the
/// caller steps the animator.
final class ShadeExample: CollisionBehaviorDelegate {
    let animator: DynamicAnimator
    let shade: DynamicBody
    let handle: AttachmentBehavior
    private(set) var boundaryContacts: [String] = []

    init(bounds: CGRect) {
        animator = DynamicAnimator(referenceBounds: bounds)
        shade = DynamicBody(frame: CGRect(x: 0, y: 40 - bounds.height, width: bounds.width, height: bounds.height))
        handle = AttachmentBehavior(item: shade, offsetFromCenter: Offset(horizontal: 0, vertical: bounds.height / 2),
                                    attachedToAnchor: CGPoint(x: bounds.midX, y: 40))
        handle.frequency = 3
        handle.damping = 0.7
        animator.addBehavior(handle)
        let collision = CollisionBehavior(items: [shade])
        collision.setTranslatesReferenceBoundsIntoBoundary(with: EdgeInsets(top: -bounds.height, left: 0, bottom: 0, right: 0))
        collision.collisionDelegate = self
        animator.addBehavior(collision)
        let behaviour = DynamicItemBehavior(items: [shade])
        behaviour.allowsRotation = false
        behaviour.elasticity = 0
        animator.addBehavior(behaviour)
    }

    /// Pulls the shade's handle down past the screen (open), or up to 40 pt (close).
    func pull(down: Bool) {
        handle.anchorPoint = CGPoint(x: shade.center.x, y: down ? animator.referenceBounds!.maxY + 100 : 40)
    }

    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem,
                           withBoundaryIdentifier identifier: NSCopying?, at p: CGPoint) {
        boundaryContacts.append(identifier == nil ? "reference bounds" : "\(identifier!)")
    }
}
