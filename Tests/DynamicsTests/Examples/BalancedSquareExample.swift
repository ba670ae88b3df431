// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// A square turned by `angle` (π/4: on its corner) dropped a little above the floor of the reference bounds,
/// written as its UIKit version is (types renamed, the view a `DynamicBody` with a rotation transform).
///
/// Differences from the UIKit version: `DynamicAnimator(referenceBounds:)`, `DynamicBody(frame:)`, and the
/// caller steps the animator.
final class BalancedSquareExample {
    let animator: DynamicAnimator
    let square: DynamicBody

    init(bounds: CGRect, angle: CGFloat) {
        animator = DynamicAnimator(referenceBounds: bounds)
        let half = 50 * (abs(cos(angle)) + abs(sin(angle)))  // the turned square's half height
        square = DynamicBody(frame: CGRect(x: bounds.midX - 50, y: bounds.maxY - half - 52, width: 100, height: 100))
        square.transform = CGAffineTransform(rotationAngle: angle)
        let collision = CollisionBehavior(items: [square])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        let behaviour = DynamicItemBehavior(items: [square])
        behaviour.friction = 1
        animator.addBehavior(behaviour)
        animator.addBehavior(GravityBehavior(items: [square]))
    }
}
