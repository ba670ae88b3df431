// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

@Suite struct ItemBehaviorTests {
    @Test("defaults per Units and semantics")
    func defaults() {
        let b = DynamicItemBehavior()
        #expect(b.elasticity == 0 && b.friction == 0 && b.density == 1 && b.resistance == 0)
        #expect(b.angularResistance == 0 && b.charge == 0 && !b.isAnchored && b.allowsRotation)
    }

    @Test("resistance: v ← v / (1 + h·c) per substep, for linear and angular velocity")
    func resistanceDecay() {
        let body = square()
        let animator = makeAnimator()
        let b = DynamicItemBehavior(items: [body])
        b.resistance = 2
        b.angularResistance = 3
        animator.addBehavior(b)
        b.addLinearVelocity(CGPoint(x: 100, y: 0), for: body)
        b.addAngularVelocity(1, for: body)
        animator.step(by: 1.0)
        let h = 1.0 / 240
        let v = 100 / pow(1 + h * 2, 240), w = 1 / pow(1 + h * 3, 240)
        #expect(relativeError(b.linearVelocity(for: body).x, v) < 1e-4, "v = \(b.linearVelocity(for: body).x), law \(v)")
        #expect(relativeError(b.angularVelocity(for: body), w) < 1e-4)
        #expect(relativeError(v, 100 * exp(-2)) < 0.01)  // the law approaches e^(−c t)
    }

    @Test("anchored items never move under gravity, pushes and added velocity")
    func anchored() {
        let body = square(at: CGPoint(x: 10, y: 20))
        let animator = makeAnimator()
        let b = DynamicItemBehavior(items: [body])
        b.isAnchored = true
        let push = PushBehavior(items: [body], mode: .continuous)
        push.setAngle(1, magnitude: 50)
        push.setTargetOffsetFromCenter(Offset(horizontal: 40, vertical: 0), for: body)
        animator.addBehavior(b)
        animator.addBehavior(GravityBehavior(items: [body]))
        animator.addBehavior(push)
        b.addLinearVelocity(CGPoint(x: 500, y: 500), for: body)
        animator.step(by: 2.0)
        #expect(body.center == CGPoint(x: 10, y: 20))
        #expect(body.rotation == 0)
        #expect(b.linearVelocity(for: body) == .zero)
    }

    @Test("allowsRotation = false keeps the angle under an off-centre push")
    func noRotation() {
        let body = DynamicBody(center: .zero, size: CGSize(width: 100, height: 100), rotation: 0.3)
        let animator = makeAnimator()
        let b = DynamicItemBehavior(items: [body])
        b.allowsRotation = false
        let push = PushBehavior(items: [body], mode: .continuous)
        push.setAngle(0, magnitude: 5)
        push.setTargetOffsetFromCenter(Offset(horizontal: 0, vertical: 50), for: body)
        animator.addBehavior(b)
        animator.addBehavior(push)
        b.addAngularVelocity(4, for: body)
        animator.step(by: 1.0)
        #expect(abs(body.rotation - 0.3) < 1e-6)
        #expect(body.center.x > 200)  // it still translates: 500 pt/s² for 1 s ≈ 250 pt
    }

    @Test("the last item behaviour in depth-first order wins; removing it restores the previous one")
    func lastInTreeWins() {
        // Acceleration under a 1 N push is 100/m, so the distance after 1 s reveals the density in force.
        func velocity(_ configure: (DynamicAnimator, DynamicBody) -> Void) -> CGFloat {
            let body = square()
            let animator = makeAnimator()
            let push = PushBehavior(items: [body], mode: .continuous)
            push.setAngle(0, magnitude: 1)
            animator.addBehavior(push)
            configure(animator, body)
            animator.step(by: 1.0)
            return body.center.x
        }
        let x1 = velocity { _, _ in }
        let x4 = velocity { a, body in
            let parent = DynamicBehavior()
            let first = DynamicItemBehavior(items: [body])
            first.density = 2
            let second = DynamicItemBehavior(items: [body])
            second.density = 4
            parent.addChildBehavior(first)
            parent.addChildBehavior(second)
            a.addBehavior(parent)
        }
        let x2 = velocity { a, body in
            let first = DynamicItemBehavior(items: [body])
            first.density = 2
            let second = DynamicItemBehavior(items: [body])
            second.density = 4
            a.addBehavior(first)
            a.addBehavior(second)
            a.removeBehavior(second)
        }
        #expect(relativeError(x1 / x4, 4) < 1e-4, "x1 \(x1) x4 \(x4)")
        #expect(relativeError(x1 / x2, 2) < 1e-4, "x1 \(x1) x2 \(x2)")
    }
}
