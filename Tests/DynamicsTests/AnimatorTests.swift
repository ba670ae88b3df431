// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

@Suite struct AnimatorTests {
    @Test("pause and resume: each transition reported exactly once, elapsedTime stops while paused")
    func pauseResume() {
        let body = square()
        let animator = makeAnimator()
        let log = DelegateLog()
        animator.delegate = log
        #expect(!animator.isRunning)
        let b = DynamicItemBehavior(items: [body])
        b.resistance = 5
        animator.addBehavior(b)
        #expect(log.events == ["resume"])
        animator.step(by: 2.0)
        #expect(log.events == ["resume", "pause"])
        #expect(!animator.isRunning)
        let paused = animator.elapsedTime
        #expect(paused > 0.49 && paused < 0.6, "rest needs 0.5 s below 5 pt/s, got \(paused)")
        animator.step(by: 1.0)
        #expect(animator.elapsedTime == paused)
        b.addLinearVelocity(CGPoint(x: 200, y: 0), for: body)
        #expect(log.events == ["resume", "pause", "resume"])
        animator.step(by: 5.0)
        #expect(log.events == ["resume", "pause", "resume", "pause"])
        #expect(body.center.x > 20)
        animator.addBehavior(GravityBehavior(items: [body]))
        #expect(log.events.last == "resume")
        #expect(log.events.count == 5)
    }

    @Test("runUntilPaused reports whether the animator paused within the timeout")
    func runUntilPaused() {
        let body = square()
        let animator = makeAnimator()
        animator.addBehavior(GravityBehavior(items: [body]))
        #expect(!animator.runUntilPaused(timeout: 1))
        let still = makeAnimator()
        still.addBehavior(DynamicItemBehavior(items: [square()]))
        #expect(still.runUntilPaused(timeout: 1))
    }

    @Test("a group moves rigidly: member distances and relative rotations are kept")
    func groupIsRigid() {
        let a = square(at: CGPoint(x: 0, y: 0))
        let b = DynamicBody(center: CGPoint(x: 200, y: 50), size: CGSize(width: 50, height: 100), rotation: 0.4)
        let group = DynamicItemGroup(items: [a, b])
        let animator = makeAnimator()
        let push = PushBehavior(items: [group], mode: .continuous)
        push.setAngle(0, magnitude: 2)
        push.setTargetOffsetFromCenter(Offset(horizontal: 0, vertical: 60), for: group)
        animator.addBehavior(GravityBehavior(items: [group]))
        animator.addBehavior(push)
        let before = hypot(a.center.x - b.center.x, a.center.y - b.center.y)
        animator.step(by: 1.0)
        let after = hypot(a.center.x - b.center.x, a.center.y - b.center.y)
        #expect(abs(after - before) < 1e-3)
        #expect(abs(a.rotation) > 0.05, "the off-centre push turns the group")
        #expect(abs((b.rotation - a.rotation) - 0.4) < 1e-6)
        // The group's centre of mass falls freely: masses 1 and 0.5 at y 0 and 50 → start y = 50/3.
        let cy = (1 * a.center.y + 0.5 * b.center.y) / 1.5
        #expect(relativeError(cy - 50.0 / 3, 500) < 0.01, "centre of mass fell \(cy - 50.0 / 3)")
    }

    @Test("items(in:) returns the items whose outline meets the rect")
    func itemsInRect() {
        let near = square(at: CGPoint(x: 0, y: 0)), far = square(at: CGPoint(x: 1000, y: 0))
        let animator = makeAnimator()
        animator.addBehavior(DynamicItemBehavior(items: [near, far]))
        animator.step(by: 1.0 / 60)
        let found = animator.items(in: CGRect(x: 40, y: -10, width: 20, height: 20))
        #expect(found.count == 1 && found[0] === near)
        #expect(animator.items(in: CGRect(x: 500, y: 500, width: 10, height: 10)).isEmpty)
    }

    @Test("updateItem(usingCurrentState:) re-reads the centre, rotation and size")
    func updateItem() {
        let body = square()
        let animator = makeAnimator()
        let push = PushBehavior(items: [body], mode: .continuous)
        push.setAngle(0, magnitude: 1)
        animator.addBehavior(push)
        animator.step(by: 1.0 / 60)
        body.center = CGPoint(x: 1000, y: 1000)
        body.size = CGSize(width: 200, height: 100)  // mass 2: acceleration halves
        animator.updateItem(usingCurrentState: body)
        let v0 = body.center.x
        animator.step(by: 1.0)
        #expect(body.center.y == 1000)
        #expect(body.center.x > v0 && body.center.x - v0 < 60, "moved \(body.center.x - v0)")
    }

    @Test("behaviours report their animator; willMove(to:) is called on join and leave")
    func willMove() {
        final class Probe: DynamicBehavior {
            var moves: [Bool] = []
            override func willMove(to animator: DynamicAnimator?) { moves.append(animator != nil) }
        }
        let animator = makeAnimator()
        let parent = DynamicBehavior(), child = Probe()
        parent.addChildBehavior(child)
        animator.addBehavior(parent)
        #expect(child.dynamicAnimator === animator)
        animator.removeBehavior(parent)
        #expect(child.dynamicAnimator == nil)
        #expect(child.moves == [true, false])
        #expect(parent.childBehaviors.count == 1)
    }

    @Test("an item removed from one animator can join another at once")
    func moveBetweenAnimators() {
        let body = square()
        let a = makeAnimator(), b = makeAnimator()
        let gravity = GravityBehavior(items: [body])
        a.addBehavior(gravity)
        a.step(by: 0.5)
        a.removeBehavior(gravity)
        b.addBehavior(GravityBehavior(items: [body]))  // traps if `a` still held the item
        let y = body.center.y
        b.step(by: 0.5)
        #expect(body.center.y > y + 100)
    }

    @Test("updateItem keeps a group's rotation")
    func updateGroupKeepsRotation() {
        let a = square(at: .zero), b = square(at: CGPoint(x: 200, y: 0))
        let group = DynamicItemGroup(items: [a, b])
        let animator = makeAnimator()
        let spin = DynamicItemBehavior(items: [group])
        animator.addBehavior(spin)
        spin.addAngularVelocity(1, for: group)
        animator.step(by: 0.5)
        let (ax, bx) = (a.center, b.center)
        spin.angularResistance = 1e6  // stop turning
        animator.updateItem(usingCurrentState: group)
        animator.step(by: 1.0 / 60)
        #expect(hypot(a.center.x - ax.x, a.center.y - ax.y) < 1 && hypot(b.center.x - bx.x, b.center.y - bx.y) < 1)
    }

    @Test("the animator writes rotation to the transform")
    func transformWriteBack() {
        let body = square()
        let animator = makeAnimator()
        let b = DynamicItemBehavior(items: [body])
        animator.addBehavior(b)
        b.addAngularVelocity(1, for: body)
        animator.step(by: 0.5)
        #expect(abs(body.rotation - 0.5) < 1e-5)
        #expect(abs(body.transform.a - cos(body.rotation)) < 1e-12)
    }
}

@Suite struct MisuseTests {
    @Test("an item in two animators traps")
    func itemInTwoAnimators() async {
        await #expect(processExitsWith: .failure) {
            let body = DynamicBody(center: .zero, size: CGSize(width: 10, height: 10))
            let a = DynamicAnimator()
            a.addBehavior(GravityBehavior(items: [body]))
            a.step(by: 1.0 / 60)
            let b = DynamicAnimator()
            b.addBehavior(GravityBehavior(items: [body]))
        }
    }

    @Test("a behaviour added at two levels traps")
    func behaviourTwice() async {
        await #expect(processExitsWith: .failure) {
            let g = GravityBehavior()
            let parent = DynamicBehavior()
            parent.addChildBehavior(g)
            DynamicAnimator().addBehavior(g)
        }
    }

    @Test("a non-positive density traps with a message")
    func badDensity() async {
        await #expect(processExitsWith: .failure) {
            DynamicItemBehavior().density = 0
        }
    }

    @Test("an item with a NaN centre traps when it joins")
    func nanCenter() async {
        await #expect(processExitsWith: .failure) {
            let body = DynamicBody(center: CGPoint(x: CGFloat.nan, y: 0), size: CGSize(width: 10, height: 10))
            let a = DynamicAnimator()
            a.addBehavior(GravityBehavior(items: [body]))
            a.step(by: 1.0 / 60)
        }
    }

    @Test("items(in:) with a NaN rect traps")
    func nanRect() async {
        await #expect(processExitsWith: .failure) {
            _ = DynamicAnimator().items(in: CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10))
        }
    }
}
