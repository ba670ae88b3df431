// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

@Suite struct SnapTests {
    @Test("snap converges to the point with rotation 0")
    func converges() {
        let body = DynamicBody(center: .zero, size: CGSize(width: 80, height: 40), rotation: 0.8)
        let animator = makeAnimator()
        animator.addBehavior(SnapBehavior(item: body, snapTo: CGPoint(x: 300, y: 200)))
        animator.step(by: 3.0)
        #expect(hypot(body.center.x - 300, body.center.y - 200) < 0.5, "at \(body.center)")
        #expect(abs(body.rotation) < 1e-3)
    }

    /// Largest excursion past the target along x for a snap from x = 0 to x = 100.
    func overshoot(damping: CGFloat) -> CGFloat {
        let body = square()
        let animator = makeAnimator()
        let snap = SnapBehavior(item: body, snapTo: CGPoint(x: 100, y: 0))
        snap.damping = damping
        var maxX: CGFloat = 0
        snap.action = { maxX = max(maxX, body.center.x) }
        animator.addBehavior(snap)
        animator.step(by: 3.0)
        return maxX - 100
    }

    @Test("damping 1 overshoots less than damping 0 (ζ = 0.05 + 0.95·damping)")
    func overshootOrder() {
        let loose = overshoot(damping: 0), tight = overshoot(damping: 1)
        #expect(tight < loose)
        #expect(loose > 60, "ζ = 0.05 overshoots by most of the distance, got \(loose)")
        #expect(tight < 0.5, "ζ = 1 is critically damped, got \(tight)")
    }

    @Test("snap oscillates at 2.5 Hz when lightly damped")
    func frequency() {
        let body = square()
        let animator = makeAnimator()
        let snap = SnapBehavior(item: body, snapTo: CGPoint(x: 100, y: 0))
        snap.damping = 0
        var crossings: [TimeInterval] = []
        var previous: CGFloat = -100
        snap.action = {
            let d = body.center.x - 100
            if previous < 0 && d >= 0 { crossings.append(animator.elapsedTime) }
            previous = d
        }
        animator.addBehavior(snap)
        animator.step(by: 2.0)
        #expect(crossings.count >= 4)
        let period = (crossings[3] - crossings[1]) / 2
        // Damped period 1/(f√(1−ζ²)); the implicit integrator lengthens it slightly.
        #expect(relativeError(period, 1 / (2.5 * (1 - 0.05 * 0.05).squareRoot())) < 0.05, "period \(period)")
    }

    @Test("a spun item settles at the nearest whole turn instead of unwinding")
    func nearestTurn() throws {
        let world = try DynamicWorld()
        let id = try world.createItems(ItemDescription(), at: [.zero], angles: [4 * .pi + 0.3])[0]
        try world.setSnap(to: .zero, dampingRatio: 1, for: [id])
        try world.step(by: 3.0)
        #expect(abs(world.pose(of: id).angle - 4 * .pi) < 1e-3, "angle \(world.pose(of: id).angle)")
    }

    @Test("moving the snap point puts a resting item in motion again")
    func movingPointWakes() {
        let body = square()
        let animator = makeAnimator()
        let snap = SnapBehavior(item: body, snapTo: CGPoint(x: 50, y: 0))
        snap.damping = 1
        animator.addBehavior(snap)
        #expect(animator.runUntilPaused(timeout: 10))
        snap.snapPoint = CGPoint(x: 400, y: 0)
        #expect(animator.isRunning)
        animator.step(by: 3.0)
        #expect(abs(body.center.x - 400) < 1)
    }
}
