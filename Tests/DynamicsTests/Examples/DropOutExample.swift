// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// The drop-in presentation's composite behaviour, written as its UIKit version is: gravity and a floor as
/// child behaviours, and an `action` that removes the whole behaviour once the animator has run for
/// `duration` seconds.
final class DropInBehavior: DynamicBehavior {
    init(item: any DynamicItem, floorY: CGFloat, width: CGFloat, duration: TimeInterval) {
        super.init()
        addChildBehavior(GravityBehavior(items: [item]))
        let floor = CollisionBehavior(items: [item])
        floor.addBoundary(withIdentifier: "floor" as NSCopying, from: CGPoint(x: 0, y: floorY), to: CGPoint(x: width, y: floorY))
        addChildBehavior(floor)
        let landing = DynamicItemBehavior(items: [item])
        landing.elasticity = 0.2
        addChildBehavior(landing)
        action = { [unowned self] in
            guard let animator = dynamicAnimator, animator.elapsedTime > duration else { return }
            animator.removeBehavior(self)
        }
    }
}

/// The drop-out presentation, written as its UIKit version is (types renamed, the card a `DynamicBody`):
/// presented, the card drops in and lands on a floor, and the composite behaviour removes itself after 1.2 s
/// (while the card still settles: an animator at rest does not step, so its elapsed time stops);
/// dismissed, the card hangs from an attachment at its top-left corner and swings to rest, and when the
/// animator pauses the delegate lets it go, so it falls out of the screen.
///
/// Differences from the UIKit version: `DynamicAnimator(referenceBounds:)`, `DynamicBody(frame:)`, and the
/// caller steps the animator.
final class DropOutExample: DynamicAnimatorDelegate {
    let animator: DynamicAnimator
    let card: DynamicBody
    let bounds: CGRect
    private var hanger: AttachmentBehavior?
    private(set) var letGo = false

    init(bounds: CGRect) {
        self.bounds = bounds
        animator = DynamicAnimator(referenceBounds: bounds)
        card = DynamicBody(frame: CGRect(x: bounds.midX - 100, y: -150, width: 200, height: 120))
        animator.delegate = self
    }

    func present() {
        animator.addBehavior(DropInBehavior(item: card, floorY: bounds.midY + 60, width: bounds.width, duration: 1.2))
    }

    func dismiss() {
        let corner = Offset(horizontal: -100, vertical: -60)
        let hanger = AttachmentBehavior(item: card, offsetFromCenter: corner,
                                        attachedToAnchor: CGPoint(x: card.center.x - 100, y: card.center.y - 60))
        animator.addBehavior(hanger)
        self.hanger = hanger
        animator.addBehavior(GravityBehavior(items: [card]))
        let swing = DynamicItemBehavior(items: [card])
        swing.angularResistance = 2
        swing.resistance = 1
        animator.addBehavior(swing)
    }

    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {
        guard let hanger else { return }
        animator.removeBehavior(hanger)
        self.hanger = nil
        letGo = true
    }
}
