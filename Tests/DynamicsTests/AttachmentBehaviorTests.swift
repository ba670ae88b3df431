import Dynamics
import Foundation
import Testing

/// `AttachmentBehavior` in a `DynamicAnimator`: UIKit-shaped use of the attachments.
@Suite struct AttachmentBehaviorTests {
    @Test("the nine-ball chain: dragged by its head, released, it comes to rest inside the bounds")
    func nineBalls() {
        let bounds = CGRect(x: 0, y: 0, width: 320, height: 568)
        var c = DynamicsConfiguration()
        c.workerCount = 1
        let animator = DynamicAnimator(referenceBounds: bounds, configuration: c)
        let balls = (0..<9).map { DynamicBody(center: CGPoint(x: 60 + 25 * CGFloat($0), y: 100),
                                             size: CGSize(width: 20, height: 20)) }
        for (a, b) in zip(balls, balls.dropFirst()) { animator.addBehavior(AttachmentBehavior(item: b, attachedTo: a)) }
        animator.addBehavior(GravityBehavior(items: balls))
        let collision = CollisionBehavior(items: balls)
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        let drag = AttachmentBehavior(item: balls[0], attachedToAnchor: balls[0].center)
        #expect(drag.attachedBehaviorType == .anchor && drag.length == 0)
        animator.addBehavior(drag)
        for k in 0..<60 { // a pan gesture: the anchor moves every step
            drag.anchorPoint = CGPoint(x: 60 + 3 * CGFloat(k), y: 100 + 4 * CGFloat(k))
            animator.step(by: 1.0 / 60)
        }
        #expect(hypot(balls[0].center.x - drag.anchorPoint.x, balls[0].center.y - drag.anchorPoint.y) < 5,
                "the head follows the anchor: \(balls[0].center) vs \(drag.anchorPoint)")
        animator.removeBehavior(drag)
        #expect(animator.runUntilPaused(timeout: 30), "still moving after 30 s")
        for ball in balls {
            #expect(bounds.insetBy(dx: 9, dy: 9).contains(ball.center), "ball at \(ball.center)")
        }
        for (a, b) in zip(balls, balls.dropFirst()) {
            #expect(abs(hypot(b.center.x - a.center.x, b.center.y - a.center.y) - 25) < 0.5)
        }
    }

    @Test("a pendulum made with AttachmentBehavior falls freely once the attachment is removed")
    func removeWhileRunning() {
        let animator = makeAnimator()
        let bob = square(at: CGPoint(x: 100, y: 0), size: CGSize(width: 10, height: 10))
        let rod = AttachmentBehavior(item: bob, attachedToAnchor: .zero)
        #expect(abs(rod.length - 100) < 1e-9)
        animator.addBehavior(GravityBehavior(items: [bob]))
        animator.addBehavior(rod)
        animator.step(by: 0.5)
        #expect(abs(hypot(bob.center.x, bob.center.y) - 100) < 1)
        animator.removeBehavior(rod)
        let y0 = bob.center.y
        animator.step(by: 0.5)
        #expect(hypot(bob.center.x, bob.center.y) > 150, "kept swinging on the rod: \(bob.center), from y \(y0)")
    }

    @Test("a weld holds a compound group to an anchored item; a pin limits a bar's swing")
    func groupsAndAnchored() {
        let animator = makeAnimator()
        let wall = square(at: CGPoint(x: 0, y: 0))
        let fixed = DynamicItemBehavior(items: [wall])
        fixed.isAnchored = true
        let group = DynamicItemGroup(items: [square(at: CGPoint(x: 100, y: 0)), square(at: CGPoint(x: 200, y: 0))])
        let weld = AttachmentBehavior.fixedAttachment(with: group, attachedTo: wall, attachmentAnchor: CGPoint(x: 50, y: 0))
        animator.addBehavior(fixed)
        animator.addBehavior(GravityBehavior(items: [group]))
        animator.addBehavior(weld)
        animator.step(by: 3)
        #expect(abs(group.center.x - 150) < 3 && abs(group.center.y) < 10, "group at \(group.center)")

        let bar = square(at: CGPoint(x: 100, y: 300), size: CGSize(width: 200, height: 20))
        let post = square(at: CGPoint(x: -50, y: 300))
        let anchor = DynamicItemBehavior(items: [post])
        anchor.isAnchored = true
        let pin = AttachmentBehavior.pinAttachment(with: bar, attachedTo: post, attachmentAnchor: CGPoint(x: 0, y: 300))
        pin.attachmentRange = FloatRange(minimum: -0.1, maximum: 0.3)
        animator.addBehavior(anchor)
        animator.addBehavior(GravityBehavior(items: [bar]))
        animator.addBehavior(pin)
        animator.step(by: 2)
        #expect(abs(atan2(bar.transform.b, bar.transform.a) - 0.3) < 0.02, "bar at \(atan2(bar.transform.b, bar.transform.a)) rad, limit 0.3")
        pin.attachmentRange = .infinite
        animator.step(by: 2)
        #expect(atan2(bar.transform.b, bar.transform.a) > 1, "free again: \(atan2(bar.transform.b, bar.transform.a)) rad")
    }
}
