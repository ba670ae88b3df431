// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

@Suite struct GravityTests {
    @Test("free fall: from rest, 1 s at magnitude 1 moves 500 pt (± 1 %)")
    func freeFall() {
        let body = square()
        let animator = makeAnimator()
        animator.addBehavior(GravityBehavior(items: [body]))
        animator.step(by: 1.0)
        #expect(relativeError(body.center.y, 500) < 0.01, "y = \(body.center.y)")
        #expect(abs(body.center.x) < 1e-9)
        #expect(abs(animator.elapsedTime - 1.0) < 1e-9)
    }

    @Test("gravity defaults: direction (0, 1), angle π/2, magnitude 1")
    func defaults() {
        let g = GravityBehavior()
        #expect(g.gravityDirection == CGVector(dx: 0, dy: 1))
        #expect(abs(g.angle - .pi / 2) < 1e-12)
        #expect(g.magnitude == 1)
    }

    @Test("setting magnitude 0 sets angle 0; angle and magnitude set the direction")
    func angleAndMagnitude() {
        let g = GravityBehavior()
        g.magnitude = 0
        #expect(g.angle == 0)
        g.setAngle(.pi, magnitude: 0.5)
        #expect(abs(g.gravityDirection.dx + 0.5) < 1e-12 && abs(g.gravityDirection.dy) < 1e-12)
    }

    @Test("angle 0, magnitude 0.5: 250 pt along +x in 1 s, mass-independent")
    func sidewaysHalfGravity() {
        let light = square(at: .zero), heavy = square(at: CGPoint(x: 0, y: 500), size: CGSize(width: 300, height: 300))
        let animator = makeAnimator()
        let g = GravityBehavior(items: [light, heavy])
        g.setAngle(0, magnitude: 0.5)
        animator.addBehavior(g)
        animator.step(by: 1.0)
        #expect(relativeError(light.center.x, 250) < 0.01)
        #expect(abs(light.center.x - heavy.center.x) < 1e-6)
        #expect(abs(heavy.center.y - 500) < 1e-6)
    }

    @Test("step(by:) takes fixed steps and carries the remainder; actions run once per step")
    func fixedSteps() {
        let body = square()
        let animator = makeAnimator()
        let g = GravityBehavior(items: [body])
        var actions = 0
        g.action = { actions += 1 }
        animator.addBehavior(g)
        animator.step(by: 0.5)
        animator.step(by: 0.5 + 1.0 / 120)
        #expect(actions == 60)
        animator.step(by: 1.0 / 120)
        #expect(actions == 61)
    }
}
