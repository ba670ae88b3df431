// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// UIKit Dynamics code ports by renaming types: the pieces a porter cannot see break nothing.
@Suite struct PortFidelityTests {
    @Test("DynamicBody has UIKit's frame under an identity transform and init(frame:)")
    func frame() {
        let body = DynamicBody(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
        #expect(body.center == CGPoint(x: 60, y: 45))
        #expect(body.bounds == CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(body.frame == CGRect(x: 10, y: 20, width: 100, height: 50))
        body.frame = CGRect(x: -40, y: 0, width: 20, height: 30)
        #expect(body.center == CGPoint(x: -30, y: 15) && body.size == CGSize(width: 20, height: 30))
        // A rotation does not change the frame (the transform is ignored).
        body.transform = CGAffineTransform(rotationAngle: 0.5)
        #expect(body.frame == CGRect(x: -40, y: 0, width: 20, height: 30))
        // A negative size is standardised, as CGRect does.
        body.frame = CGRect(x: 100, y: 100, width: -20, height: -10)
        #expect(body.frame == CGRect(x: 80, y: 90, width: 20, height: 10))
    }

    /// A collision delegate written with UIKit's signatures, types renamed (`NSCopying?` identifiers).
    final class UIKitStyleDelegate: CollisionBehaviorDelegate {
        var began: [String] = [], ended: [String] = []
        func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem,
                               withBoundaryIdentifier identifier: NSCopying?, at p: CGPoint) {
            began.append((identifier as? NSString).map { $0 as String } ?? "nil")
        }
        func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: DynamicItem,
                               withBoundaryIdentifier identifier: NSCopying?) {
            ended.append((identifier as? NSString).map { $0 as String } ?? "nil")
        }
    }

    /// The same delegate in the Swift spelling.
    final class SwiftStyleDelegate: CollisionBehaviorDelegate {
        var began: [AnyHashable?] = []
        func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                               withBoundaryIdentifier identifier: AnyHashable?, at point: CGPoint) {
            began.append(identifier)
        }
    }

    @Test("a collision delegate with UIKit's NSCopying? signatures is called, with the identifier as an NSString")
    func uikitCollisionDelegate() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let box = square(at: CGPoint(x: 200, y: 100), size: CGSize(width: 40, height: 40))
        let gravity = GravityBehavior(items: [box])
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "shelf" as NSCopying, from: CGPoint(x: 0, y: 300), to: CGPoint(x: 400, y: 300))
        let uikit = UIKitStyleDelegate(), swift = SwiftStyleDelegate()
        collision.collisionDelegate = uikit
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        animator.step(by: 1.5)
        #expect(uikit.began == ["shelf"], "began: \(uikit.began)")
        // The box is lifted off the shelf (ended "shelf"), then the shelf goes and the box falls onto the
        // reference bounds (began, identifier nil).
        let lift = PushBehavior(items: [box], mode: .instantaneous)
        lift.pushDirection = CGVector(dx: 0, dy: -0.64)  // Δv = 100 · 0.64 / 0.16 = 400 pt/s up
        animator.addBehavior(lift)
        animator.step(by: 0.3)
        collision.removeBoundary(withIdentifier: "shelf" as NSCopying)
        animator.step(by: 1.5)
        #expect(uikit.began == ["shelf", "nil"] && uikit.ended == ["shelf"], "began \(uikit.began), ended \(uikit.ended)")
        // The Swift spelling sees the same boundary as the String it was added as.
        collision.collisionDelegate = swift
        collision.translatesReferenceBoundsIntoBoundary = false
        collision.addBoundary(withIdentifier: "ledge" as NSCopying, from: CGPoint(x: 0, y: 500), to: CGPoint(x: 400, y: 500))
        animator.step(by: 1.5)
        #expect(swift.began == [AnyHashable("ledge")], "began: \(swift.began)")
        #expect(collision.boundaryIdentifiers == [AnyHashable("ledge")] && collision.boundary(withIdentifier: "ledge") != nil)
    }

    /// An animator delegate with UIKit's signatures, types renamed.
    final class UIKitAnimatorDelegate: DynamicAnimatorDelegate {
        var paused = 0, resumed = 0
        func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { paused += 1 }
        func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { resumed += 1 }
    }

    @Test("an animator delegate with UIKit's signatures is told of the pause and the resume")
    func uikitAnimatorDelegate() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let log = UIKitAnimatorDelegate()
        animator.delegate = log
        let box = square(at: CGPoint(x: 200, y: 300), size: CGSize(width: 40, height: 40))
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(GravityBehavior(items: [box]))
        animator.addBehavior(collision)
        #expect(animator.runUntilPaused(timeout: 10))
        #expect(log.resumed == 1 && log.paused == 1)
    }

    @Test("an attachment's default length is the distance when first added; an explicit length is kept")
    func lengthAtFirstAdd() {
        // UIKit's lazy pattern: create with anchor .zero, move the anchor to the touch, then add.
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let box = square(at: CGPoint(x: 200, y: 200), size: CGSize(width: 40, height: 40))
        let drag = AttachmentBehavior(item: box, attachedToAnchor: .zero)
        #expect(abs(drag.length - 200 * 2.squareRoot()) < 1e-9, "before it is added, the distance at creation")
        drag.anchorPoint = CGPoint(x: 250, y: 200)
        animator.addBehavior(drag)
        animator.step(by: 1)
        #expect(abs(drag.length - 50) < 1e-9, "length \(drag.length)")
        #expect(hypot(box.center.x - 200, box.center.y - 200) < 0.5, "the box stays where it was: \(box.center)")
        // Removed and added again: the length stays as it was fixed.
        animator.removeBehavior(drag)
        drag.anchorPoint = CGPoint(x: 300, y: 200)
        animator.addBehavior(drag)
        animator.step(by: 2)
        #expect(drag.length == 50 && abs(hypot(box.center.x - 300, box.center.y - 200) - 50) < 0.5, "\(box.center)")
        // A length set before the first add is kept.
        let other = square(at: CGPoint(x: 100, y: 100), size: CGSize(width: 40, height: 40))
        let rod = AttachmentBehavior(item: other, attachedToAnchor: CGPoint(x: 100, y: 0))
        rod.length = 30
        animator.addBehavior(rod)
        animator.step(by: 2)
        #expect(rod.length == 30 && abs(hypot(other.center.x - 100, other.center.y) - 30) < 0.5, "\(other.center)")
        // The length is taken when the behaviour is added, not at the next step: moving the anchor between
        // the two (a pan gesture's first change) drags the item rather than lengthening the rod.
        let third = square(at: CGPoint(x: 300, y: 300), size: CGSize(width: 40, height: 40))
        let grip = AttachmentBehavior(item: third, attachedToAnchor: CGPoint(x: 300, y: 300))
        animator.addBehavior(grip)
        grip.anchorPoint = CGPoint(x: 300, y: 340)
        animator.step(by: 1)
        #expect(grip.length == 0 && hypot(third.center.x - 300, third.center.y - 340) < 0.5, "\(third.center)")
    }

    /// UIKit's flick pattern with the anchor dragged out of the view, to each side, a corner and far away:
    /// the rigid attachment cannot be met. The boundary outranks it (a braced chain, in the kernel's
    /// joint_chain.c): the card's centre never leaves the bounds, its corners go no deeper than a fast
    /// impact's substep of travel, it ends pressed against the boundary at rest within the contact's
    /// allowed overlap, and it never moves faster than the anchor was dragged plus the 300 pt/s at which a
    /// braced attachment corrects its error (no energy is injected).
    @Test("a rigid attachment pulling an item against the reference bounds keeps it inside, and the world finite",
          arguments: [CGPoint(x: -710, y: 840), CGPoint(x: 160, y: 1500), CGPoint(x: 1200, y: -600),
                      CGPoint(x: -900, y: 230), CGPoint(x: 330, y: 600), CGPoint(x: 2000, y: 2000)])
    func attachmentAgainstBoundary(target: CGPoint) {
        let bounds = CGRect(x: 0, y: 0, width: 320, height: 568)
        let animator = DynamicAnimator(referenceBounds: bounds)
        let card = DynamicBody(frame: CGRect(x: 110, y: 200, width: 100, height: 60))
        let collision = CollisionBehavior(items: [card])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [card]))
        let drag = AttachmentBehavior(item: card, offsetFromCenter: Offset(horizontal: 30, vertical: 10),
                                      attachedToAnchor: .zero)
        let touch = CGPoint(x: 190, y: 240) // the card's centre (160, 230) + (30, 10)
        drag.anchorPoint = touch
        animator.addBehavior(drag)
        let item = DynamicItemBehavior(items: [card])
        animator.addBehavior(item)
        // The anchor moves to the target in 1 s, then stays; the card's corners are measured as turned.
        let anchorSpeed = hypot(target.x - touch.x, target.y - touch.y)
        var deepest = 0.0, deepestAtRest = 0.0, topSpeed = 0.0, centreLeft = false
        for k in 0..<600 {
            let t = CGFloat(min(k, 60)) / 60
            drag.anchorPoint = CGPoint(x: touch.x + (target.x - touch.x) * t, y: touch.y + (target.y - touch.y) * t)
            animator.step(by: 1.0 / 60)
            let angle = card.rotation, c = card.center
            var depth = 0.0
            for (sx, sy) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
                let x = c.x + 50 * sx * cos(angle) - 30 * sy * sin(angle)
                let y = c.y + 50 * sx * sin(angle) + 30 * sy * cos(angle)
                depth = max(depth, -x, -y, x - bounds.maxX, y - bounds.maxY)
            }
            deepest = max(deepest, depth)
            if k >= 540 { deepestAtRest = max(deepestAtRest, depth) }
            centreLeft = centreLeft || !bounds.contains(c)
            let v = item.linearVelocity(for: card)
            topSpeed = max(topSpeed, hypot(v.x, v.y))
        }
        let v = item.linearVelocity(for: card)
        #expect(!centreLeft, "the card's centre left the bounds; it is at \(card.center)")
        #expect(deepest < 20, "a corner went \(deepest) pt past the bounds")
        #expect(deepestAtRest < 1, "pressed against the bounds, a corner is \(deepestAtRest) pt past them")
        #expect(hypot(v.x, v.y) < 5, "still moving at \(v) after 9 s")
        #expect(topSpeed < anchorSpeed + 300, "top speed \(topSpeed) pt/s, the anchor's \(anchorSpeed) pt/s")
    }
}
