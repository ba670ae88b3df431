// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// UIKit's falling square, the first example of the UIKit Dynamics documentation and tutorials, written as
/// its UIKit version is (types renamed, the view a `DynamicBody`): gravity and a collision with the
/// reference bounds; the animator's delegate hears when it pauses.
///
/// Differences from the UIKit version: `DynamicAnimator(referenceBounds:)` for
/// `UIDynamicAnimator(referenceView:)`, `DynamicBody(frame:)` for `UIView(frame:)` (no `addSubview`), and the
/// caller steps the animator.
final class FallingSquareExample: DynamicAnimatorDelegate {
    let animator: DynamicAnimator
    let square: DynamicBody
    private(set) var paused = 0

    init(bounds: CGRect) {
        animator = DynamicAnimator(referenceBounds: bounds)
        square = DynamicBody(frame: CGRect(x: 100, y: 100, width: 100, height: 100))
        let gravity = GravityBehavior(items: [square])
        let collision = CollisionBehavior(items: [square])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        animator.delegate = self
    }

    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { paused += 1 }
}
