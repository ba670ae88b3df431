// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// UIKit's sticky corners (WWDC 2015, "What's New in UIKit Dynamics and Visual Effects"), halved as the
/// package's `sticky_corners` scene is: a spring field over each half of the view pulls the card to the
/// half's centre; the card is dragged by an attachment and, on release, keeps the finger's velocity
/// (`addLinearVelocity`), so it sticks in the half it was thrown into. Written as the UIKit version is, with
/// types renamed and the pan gesture's states as method calls.
///
/// Differences from the UIKit version: `DynamicAnimator(referenceBounds:)`, `DynamicBody(frame:)`, and the
/// caller steps the animator.
final class StickyCornersExample {
    let animator: DynamicAnimator
    let card: DynamicBody
    private let itemBehavior: DynamicItemBehavior
    private var attachment: AttachmentBehavior?

    init(bounds: CGRect, cardAt centre: CGPoint) {
        animator = DynamicAnimator(referenceBounds: bounds)
        card = DynamicBody(frame: CGRect(x: centre.x - 50, y: centre.y - 50, width: 100, height: 100))
        let collision = CollisionBehavior(items: [card])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        itemBehavior = DynamicItemBehavior(items: [card])
        itemBehavior.density = 0.01
        itemBehavior.resistance = 10
        itemBehavior.allowsRotation = false
        animator.addBehavior(itemBehavior)
        for half in [CGRect(x: bounds.minX, y: bounds.minY, width: bounds.width, height: bounds.height / 2),
                     CGRect(x: bounds.minX, y: bounds.midY, width: bounds.width, height: bounds.height / 2)] {
            let field = FieldBehavior.springField()
            field.position = CGPoint(x: half.midX, y: half.midY)
            field.region = Region(size: half.size)
            field.addItem(card)
            animator.addBehavior(field)
        }
    }

    func panBegan(at location: CGPoint) {
        let drag = AttachmentBehavior(item: card, attachedToAnchor: location)
        animator.addBehavior(drag)
        attachment = drag
    }

    func panChanged(to location: CGPoint) { attachment?.anchorPoint = location }

    /// `.ended`, with the gesture's velocity (pt/s): the card keeps it.
    func panEnded(velocity: CGVector) {
        if let attachment { animator.removeBehavior(attachment) }
        attachment = nil
        itemBehavior.addLinearVelocity(CGPoint(x: velocity.dx, y: velocity.dy), for: card)
    }
}
