// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// Push by drag, from the UIKit Dynamics catalogue's continuous push, written as its UIKit version is (types
/// renamed, the pan gesture's states as method calls): while the finger is down a continuous push acts on the
/// square, its direction and magnitude the drag's offset from where it began (1 per 100 pt); on release it
/// stops, and resistance brings the square to rest.
///
/// Differences from the UIKit version: `DynamicAnimator(referenceBounds:)`, `DynamicBody(frame:)`, and the
/// caller steps the animator.
final class PushByDragExample {
    let animator: DynamicAnimator
    let square: DynamicBody
    let push: PushBehavior
    let itemBehavior: DynamicItemBehavior
    private var origin = CGPoint.zero

    init(bounds: CGRect) {
        animator = DynamicAnimator(referenceBounds: bounds)
        square = DynamicBody(frame: CGRect(x: 20, y: 234, width: 100, height: 100))
        let collision = CollisionBehavior(items: [square])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        itemBehavior = DynamicItemBehavior(items: [square])
        itemBehavior.resistance = 1
        itemBehavior.allowsRotation = false
        animator.addBehavior(itemBehavior)
        push = PushBehavior(items: [square], mode: .continuous)
        push.active = false
        animator.addBehavior(push)
    }

    func panBegan(at location: CGPoint) {
        origin = location
        push.active = true
    }

    func panChanged(to location: CGPoint) {
        push.pushDirection = CGVector(dx: (location.x - origin.x) / 100, dy: (location.y - origin.y) / 100)
    }

    func panEnded() { push.active = false }
}
