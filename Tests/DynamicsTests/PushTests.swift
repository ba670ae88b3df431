// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

@Suite struct PushTests {
    /// Velocity after `seconds` of a continuous push of 1 N along +x on an item of `size`.
    func velocityUnderPush(size: CGSize, seconds: Double = 1) -> CGPoint {
        let body = square(size: size)
        let animator = makeAnimator()
        let push = PushBehavior(items: [body], mode: .continuous)
        push.setAngle(0, magnitude: 1)
        let probe = DynamicItemBehavior(items: [body])
        animator.addBehavior(push)
        animator.addBehavior(probe)
        animator.step(by: seconds)
        return probe.linearVelocity(for: body)
    }

    @Test("continuous push of 1 N: 100 pt/s² on 100×100 (m = 1), 50 pt/s² on 100×200 (m = 2)")
    func continuous() {
        let v1 = velocityUnderPush(size: CGSize(width: 100, height: 100))
        let v2 = velocityUnderPush(size: CGSize(width: 100, height: 200))
        #expect(relativeError(v1.x, 100) < 1e-4, "v = \(v1)")
        #expect(relativeError(v2.x, 50) < 1e-4, "v = \(v2)")
        #expect(abs(v1.y) < 1e-9)
    }

    @Test("push defaults: magnitude 0, angle 0, direction (0, 0), active")
    func defaults() {
        let p = PushBehavior(items: [], mode: .continuous)
        #expect(p.magnitude == 0 && p.angle == 0 && p.pushDirection == CGVector(dx: 0, dy: 0) && p.active)
    }

    @Test("the angle is kept while the magnitude is 0")
    func angleAtZeroMagnitude() {
        let p = PushBehavior(items: [], mode: .continuous)
        p.angle = .pi / 2
        p.magnitude = 2
        #expect(abs(p.pushDirection.dx) < 1e-12 && abs(p.pushDirection.dy - 2) < 1e-12)
        p.magnitude = 0
        #expect(p.angle == .pi / 2 && p.pushDirection.dy == 0)
    }

    @Test("instantaneous push: Δv = 100·P/m, then inactive; setting active fires it again")
    func instantaneous() {
        let body = square(size: CGSize(width: 100, height: 200))  // m = 2
        let animator = makeAnimator()
        let push = PushBehavior(items: [body], mode: .instantaneous)
        push.setAngle(.pi / 2, magnitude: 3)  // P = 3 N·s down
        let probe = DynamicItemBehavior(items: [body])
        animator.addBehavior(push)
        animator.addBehavior(probe)
        animator.step(by: 1.0 / 60)
        #expect(!push.active)
        #expect(relativeError(probe.linearVelocity(for: body).y, 150) < 1e-5)
        animator.step(by: 0.5)
        #expect(relativeError(probe.linearVelocity(for: body).y, 150) < 1e-5, "fires once")
        push.active = true
        animator.step(by: 1.0 / 60)
        #expect(relativeError(probe.linearVelocity(for: body).y, 300) < 1e-5)
        #expect(!push.active)
    }

    @Test("off-centre continuous push: α = 100·(r × F)/I")
    func offCentreTorque() {
        let body = square()  // m = 1, I = (100² + 100²)/12
        let animator = makeAnimator()
        let push = PushBehavior(items: [body], mode: .continuous)
        push.setAngle(0, magnitude: 1)
        push.setTargetOffsetFromCenter(Offset(horizontal: 0, vertical: 50), for: body)
        let probe = DynamicItemBehavior(items: [body])
        animator.addBehavior(push)
        animator.addBehavior(probe)
        animator.step(by: 0.1)
        let inertia = 20_000.0 / 12
        let alpha = 100 * (0 * 0 - 50 * 1) / inertia  // r × F with r = (0, 50), F = (1, 0): −3 rad/s²
        #expect(relativeError(probe.angularVelocity(for: body), alpha * 0.1) < 0.01,
                "ω = \(probe.angularVelocity(for: body))")
        #expect(relativeError(probe.linearVelocity(for: body).x, 10) < 1e-4)
    }

    @Test("instantaneous off-centre push: Δω = 100·(r × P)/I")
    func offCentreImpulse() {
        let body = square()
        let animator = makeAnimator()
        let push = PushBehavior(items: [body], mode: .instantaneous)
        push.pushDirection = CGVector(dx: 0, dy: 2)
        push.setTargetOffsetFromCenter(Offset(horizontal: 30, vertical: 0), for: body)
        let probe = DynamicItemBehavior(items: [body])
        animator.addBehavior(push)
        animator.addBehavior(probe)
        animator.step(by: 1.0 / 60)
        let expected = 100 * (30 * 2.0) / (20_000.0 / 12)  // 3.6 rad/s
        #expect(relativeError(probe.angularVelocity(for: body), expected) < 1e-5)
    }
}
