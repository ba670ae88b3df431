// SPDX-License-Identifier: Apache-2.0
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
        let rods = zip(balls, balls.dropFirst()).map { AttachmentBehavior(item: $1, attachedTo: $0) }
        for rod in rods { animator.addBehavior(rod) }
        animator.addBehavior(GravityBehavior(items: balls))
        let collision = CollisionBehavior(items: balls)
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        let drag = AttachmentBehavior(item: balls[0], attachedToAnchor: balls[0].center)
        #expect(drag.attachedBehaviorType == .anchor && drag.length == 0)
        animator.addBehavior(drag)
        // A pan gesture: the anchor moves every step, down and right with gravity at 300 pt/s, then up
        // against it at 300 pt/s, then across at 1 080 pt/s. Attached neighbours pass through each other,
        // and the links keep their length within 2 %.
        var stretch = 0.0
        let path: [(steps: Int, dx: CGFloat, dy: CGFloat)] = [(60, 3, 4), (40, 0, -5), (10, -18, 0)]
        for leg in path {
            for _ in 0..<leg.steps {
                drag.anchorPoint = CGPoint(x: drag.anchorPoint.x + leg.dx, y: drag.anchorPoint.y + leg.dy)
                animator.step(by: 1.0 / 60)
                for (a, b) in zip(balls, balls.dropFirst()) {
                    stretch = max(stretch, abs(hypot(b.center.x - a.center.x, b.center.y - a.center.y) - 25) / 25)
                }
            }
        }
        #expect(stretch < 0.02, "a link stretched by \(stretch * 100) % while dragged")
        #expect(hypot(balls[0].center.x - drag.anchorPoint.x, balls[0].center.y - drag.anchorPoint.y) < 6,
                "the head follows the anchor (a third of a step's travel behind): \(balls[0].center) vs \(drag.anchorPoint)")
        animator.removeBehavior(drag)
        // Released, the chain falls and slides on the floor. With UIKit's defaults (no friction, no angular
        // resistance) it would slide from wall to wall for a long time, and a ball lifted off the floor by
        // its two rods (attached neighbours pass through each other) would keep the spin the drag gave it:
        // nothing touches it. So the balls have some of each, as a port of the example sets.
        let material = DynamicItemBehavior(items: balls)
        material.friction = 0.3
        material.angularResistance = 1
        animator.addBehavior(material)
        #expect(animator.runUntilPaused(timeout: 30), "still moving after 30 s")
        for ball in balls {
            #expect(bounds.insetBy(dx: 9, dy: 9).contains(ball.center), "ball at \(ball.center)")
        }
        for (a, b) in zip(balls, balls.dropFirst()) {
            #expect(abs(hypot(b.center.x - a.center.x, b.center.y - a.center.y) - 25) < 0.5)
        }
        // An item attachment's anchorPoint is the anchor on its second item where that item is now.
        for (k, rod) in rods.enumerated() { #expect(rod.anchorPoint == balls[k].center) }
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
        #expect(abs(weld.anchorPoint.x - 50) < 0.5 && abs(weld.anchorPoint.y) < 0.5, "anchor on the wall: \(weld.anchorPoint)")
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
        let pinned = pin.anchorPoint
        animator.step(by: 2)
        #expect(hypot(pin.anchorPoint.x - pinned.x, pin.anchorPoint.y - pinned.y) < 1, "the pin stays at \(pinned)")
        #expect(abs(atan2(bar.transform.b, bar.transform.a) - 0.3) < 0.02, "bar at \(atan2(bar.transform.b, bar.transform.a)) rad, limit 0.3")
        pin.attachmentRange = .infinite
        animator.step(by: 2)
        #expect(atan2(bar.transform.b, bar.transform.a) > 1, "free again: \(atan2(bar.transform.b, bar.transform.a)) rad")
    }

    @Test("a weld keeps the relative pose when the welded pair lands and tumbles on the floor")
    func weldUnderCollisions() {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1000, height: 1000), configuration: c)
        let a = square(at: CGPoint(x: 450, y: 300)), b = square(at: CGPoint(x: 550, y: 300))
        let weld = AttachmentBehavior.fixedAttachment(with: b, attachedTo: a, attachmentAnchor: CGPoint(x: 500, y: 300))
        let collision = CollisionBehavior(items: [a, b])
        collision.translatesReferenceBoundsIntoBoundary = true
        let material = DynamicItemBehavior(items: [a, b])
        material.friction = 0.5
        material.addAngularVelocity(3, for: a)
        animator.addBehavior(GravityBehavior(items: [a, b]))
        animator.addBehavior(collision)
        animator.addBehavior(material)
        animator.addBehavior(weld)
        var worstTurn: CGFloat = 0, worstDistance: CGFloat = 0, turn: CGFloat = 0
        for _ in 0..<180 {
            animator.step(by: 1.0 / 60)
            let angleA = atan2(a.transform.b, a.transform.a), angleB = atan2(b.transform.b, b.transform.a)
            turn = angleB - angleA
            turn -= 2 * .pi * (turn / (2 * .pi)).rounded()
            worstTurn = max(worstTurn, abs(turn))
            worstDistance = max(worstDistance, abs(hypot(b.center.x - a.center.x, b.center.y - a.center.y) - 100))
        }
        #expect(a.center.y > 800 && b.center.y > 800, "landed: \(a.center), \(b.center)")
        // The joint is a stiff spring (as Box2D's): an impact flexes it by about 1°, then it recovers.
        #expect(worstTurn < 0.05 && worstDistance < 1, "flexed by \(worstTurn) rad and \(worstDistance) pt")
        #expect(abs(turn) < 0.005, "after landing the pair is \(turn) rad off its welded angle")
    }

    @Test("misuse traps: an item attached to itself, anchorPoint set on an item attachment, a negative length")
    func misuse() async {
        await #expect(processExitsWith: .failure) {
            let body = DynamicBody(center: .zero, size: CGSize(width: 10, height: 10))
            _ = AttachmentBehavior(item: body, attachedTo: body)
        }
        await #expect(processExitsWith: .failure) {
            let a = DynamicBody(center: .zero, size: CGSize(width: 10, height: 10))
            let b = DynamicBody(center: CGPoint(x: 50, y: 0), size: CGSize(width: 10, height: 10))
            AttachmentBehavior(item: a, attachedTo: b).anchorPoint = .zero
        }
        await #expect(processExitsWith: .failure) {
            let body = DynamicBody(center: .zero, size: CGSize(width: 10, height: 10))
            AttachmentBehavior(item: body, attachedToAnchor: CGPoint(x: 0, y: 100)).length = -1
        }
    }

    @Test("bad batch data throws naming the field, and creates nothing")
    func badData() throws {
        let world = try DynamicWorld()
        let ids = try world.createItems(ItemDescription(), at: [.zero, CGPoint(x: 200, y: 0)])
        #expect(throws: DynamicsError.invalidValue(field: "anchors.x", value: .infinity, index: 1)) {
            try world.addAttachments(.pin(), items: ids, to: [nil, nil], anchors: [.zero, CGPoint(x: CGFloat.infinity, y: 0)])
        }
        #expect(throws: DynamicsError.invalidValue(field: "frequency", value: -1, index: 0)) {
            try world.addAttachments(.rod(frequency: -1), items: [ids[0]], to: [nil], anchors: [.zero])
        }
        #expect(throws: DynamicsError.invalidValue(field: "axis (zero length)", value: 0, index: 0)) {
            try world.addAttachments(.slider(axis: .zero), items: [ids[0]], to: [nil], anchors: [.zero])
        }
        #expect(world.attachmentCount == 0)
        let made = try world.addAttachments(.rod(), items: [ids[1]], to: [ids[0]], anchors: [.zero],
                                            itemAnchors: [CGPoint(x: 200, y: 0)])
        try world.removeItems([ids[0]])
        #expect(!world.contains(made[0]) && world.attachmentCount == 0)
        #expect(throws: DynamicsError.staleAttachment(made[0])) { try world.removeAttachments(made) }
    }
}
