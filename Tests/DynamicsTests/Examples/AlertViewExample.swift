// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// The dynamic alert view of the UIKit Dynamics tutorials, written as its UIKit version is (types renamed,
/// the alert a `DynamicBody`): it drops in from above the screen and snaps to the centre with damping 0.8;
/// dismissed, it is kicked down by an instantaneous push (angle π/2, magnitude 20), then gravity (0, −1)
/// carries it up and off the screen, where it lands against a boundary line above the frame.
///
/// Differences from the UIKit version: `DynamicAnimator(referenceBounds:)`, `DynamicBody(frame:)` for the
/// alert's view, and the caller steps the animator.
final class AlertViewExample {
    let animator: DynamicAnimator
    let alert: DynamicBody
    private var snap: SnapBehavior?
    let bounds: CGRect

    init(bounds: CGRect) {
        self.bounds = bounds
        animator = DynamicAnimator(referenceBounds: bounds)
        alert = DynamicBody(frame: CGRect(x: bounds.midX - 125, y: -200, width: 250, height: 150))
    }

    func show() {
        let snap = SnapBehavior(item: alert, snapTo: CGPoint(x: bounds.midX, y: bounds.midY))
        snap.damping = 0.8
        animator.addBehavior(snap)
        self.snap = snap
    }

    func dismiss() {
        animator.removeAllBehaviors()
        snap = nil
        let gravity = GravityBehavior(items: [alert])
        gravity.gravityDirection = CGVector(dx: 0, dy: -1)
        animator.addBehavior(gravity)
        let collision = CollisionBehavior(items: [alert])
        collision.addBoundary(withIdentifier: "above" as NSCopying, from: CGPoint(x: bounds.minX - 500, y: -400),
                              to: CGPoint(x: bounds.maxX + 500, y: -400))
        animator.addBehavior(collision)
        let push = PushBehavior(items: [alert], mode: .instantaneous)
        push.angle = .pi / 2
        push.magnitude = 20
        animator.addBehavior(push)
    }
}
