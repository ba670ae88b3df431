// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// UIKit's flick, written as its UIKit version is (types renamed, the view a `DynamicBody`, the pan
/// gesture's began/changed/ended replaced by calls): a touch drags the card by an attachment from the
/// touched point to the finger; on release the attachment goes and an instantaneous push, its magnitude
/// proportional to the finger's speed, throws the card.
///
/// Differences from the UIKit version: `DynamicAnimator(referenceBounds:)` for `UIDynamicAnimator(referenceView:)`,
/// and the animator is stepped by the caller instead of the display.
final class FlickExample {
    let animator: DynamicAnimator
    let card: DynamicBody
    private var attachment: AttachmentBehavior?
    private let itemBehavior: DynamicItemBehavior

    init(bounds: CGRect) {
        animator = DynamicAnimator(referenceBounds: bounds)
        card = DynamicBody(frame: CGRect(x: bounds.midX - 50, y: bounds.midY - 50, width: 100, height: 100))
        let collision = CollisionBehavior(items: [card])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        itemBehavior = DynamicItemBehavior(items: [card])
        itemBehavior.resistance = 2
        itemBehavior.angularResistance = 2
        itemBehavior.elasticity = 0.4
        animator.addBehavior(itemBehavior)
    }

    /// `handlePan(_:)` in `.began`.
    func panBegan(at location: CGPoint) {
        let offset = Offset(horizontal: location.x - card.center.x, vertical: location.y - card.center.y)
        let drag = AttachmentBehavior(item: card, offsetFromCenter: offset, attachedToAnchor: location)
        animator.addBehavior(drag)
        attachment = drag
    }

    /// `.changed`.
    func panChanged(to location: CGPoint) {
        attachment?.anchorPoint = location
    }

    /// `.ended`, with the gesture's velocity (pt/s).
    func panEnded(velocity: CGVector) {
        if let attachment { animator.removeBehavior(attachment) }
        attachment = nil
        let push = PushBehavior(items: [card], mode: .instantaneous)
        push.pushDirection = CGVector(dx: velocity.dx / 100, dy: velocity.dy / 100)
        animator.addBehavior(push)
    }

    /// The card's velocity, pt/s.
    var velocity: CGPoint { itemBehavior.linearVelocity(for: card) }
}
