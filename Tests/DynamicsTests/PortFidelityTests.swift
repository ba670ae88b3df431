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
}
