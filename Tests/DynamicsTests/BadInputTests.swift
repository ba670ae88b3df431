// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// Bad input never poisons a world: each call below throws ``DynamicsError`` naming the field (or traps
/// with the documented message) and leaves the world as it was; the next step stays finite.
@Suite struct BadInputTests {
    static func world() throws -> (DynamicWorld, ItemID) {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        let w = try DynamicWorld(configuration: c)
        let id = try w.createItems(ItemDescription(), at: [CGPoint(x: 10, y: 20)])[0]
        try w.setGravity(CGVector(dx: 0, dy: 1000), for: [id])
        try w.step(count: 3)
        return (w, id)
    }

    /// Runs `call`, which must throw an invalid value naming `field`, and checks that nothing changed.
    static func rejects(_ field: String, _ w: DynamicWorld, _ call: () throws -> Void) {
        let (hash, count) = (w.stateHash(), w.itemCount)
        do {
            try call()
            Issue.record("expected an error naming \(field)")
        } catch let error as DynamicsError {
            if case .invalidValue(let f, _, _) = error { #expect(f.hasPrefix(field), "named \(f), expected \(field)") }
            else { Issue.record("expected an invalid value for \(field), got \(error)") }
        } catch {
            Issue.record("expected a DynamicsError, got \(error)")
        }
        #expect(w.stateHash() == hash && w.itemCount == count, "\(field): the world changed")
    }

    @Test("sizes and densities whose mass or inertia leaves Float range are refused, in creation and setMassProperties")
    func massRange() throws {
        let (w, id) = try Self.world()
        var d = ItemDescription()
        d.density = 1e-44
        Self.rejects("density", w) { try w.createItems(d, at: [.zero]) }
        Self.rejects("density", w) { try w.setMassProperties(d, for: [id]) }
        Self.rejects("width", w) { try w.createItems(ItemDescription(shape: .rectangle(width: 1e-30, height: 1e-30)), at: [.zero]) }
        Self.rejects("width", w) { try w.createItems(ItemDescription(shape: .rectangle(width: 1e20, height: 1e20)), at: [.zero]) }
        Self.rejects("width", w) { try w.setMassProperties(ItemDescription(shape: .ellipse(width: 1e20, height: 1), density: 1), for: [id]) }
        // A compound's given mass and inertia: their inverses must be finite.
        Self.rejects("inertia", w) {
            try w.createItems(ItemDescription(shape: .compound(mass: 1, inertia: 1e-45, width: 10, height: 10)), at: [.zero])
        }
        try w.step(count: 2)
        #expect(w.pose(of: id).center.y.isFinite && w.velocity(of: id).dy.isFinite)
    }

    @Test("circle radii get the bounds of sizes (10⁻³…10⁷ pt): 10³⁰ was accepted and the next step was NaN")
    func radiusRange() throws {
        let w = try DynamicWorld()
        let ids = try w.createItems(ItemDescription(), at: [.zero])
        for radius: CGFloat in [1e30, 1e8, 1e-4, 0, -1, .nan, .infinity] {
            Self.rejects("radius", w) { try w.addCollisionShape(.circle(radius: radius), to: ids) }
        }
        try w.addCollisionShape(.circle(radius: 1e7), to: ids)
        try w.addCollisionShape(.circle(radius: 1e-3), to: ids)
        try w.step(count: 2)
        #expect(w.pose(of: ids[0]).center.y.isFinite)
    }

    @Test("the batch world bounds gravity as the animator does: ±10⁹ pt/s², the animator's ±10⁶ units of 1000 pt/s²")
    func gravityRange() throws {
        let w = try DynamicWorld()
        let ids = try w.createItems(ItemDescription(), at: [.zero])
        Self.rejects("gravity.dy", w) { try w.setGravity(CGVector(dx: 0, dy: 3e38), for: ids) }
        Self.rejects("gravity.dx", w) { try w.setGravity(CGVector(dx: -1.01e9, dy: 0), for: ids) }
        Self.rejects("gravity.dy", w) { try w.setGravity(x: [0], y: [2e9], for: ids) }
        try w.setGravity(CGVector(dx: 0, dy: 1e9), for: ids)
        let animator = DynamicAnimator()
        let body = DynamicBody(center: .zero, size: CGSize(width: 10, height: 10))
        let gravity = GravityBehavior(items: [body])
        gravity.gravityDirection = CGVector(dx: 0, dy: 1e6)
        animator.addBehavior(gravity)
        animator.step(by: 1.0 / 60)
        #expect(body.center.y > 0)
    }

    @Test("increments that would overflow are refused: the results are checked, not only the inputs")
    func overflowingIncrements() throws {
        let (w, id) = try Self.world()
        Self.rejects("velocity.x", w) { try w.addVelocity(CGVector(dx: 3e38, dy: 0), for: [id]) }
        try w.addVelocity(CGVector(dx: 6e6, dy: 0), for: [id])
        Self.rejects("velocity.x", w) { try w.addVelocity(CGVector(dx: 6e6, dy: 0), for: [id]) }
        Self.rejects("velocity", w) { try w.applyImpulse(CGVector(dx: 1e37, dy: 0), for: [id]) }
        Self.rejects("position.x", w) { try w.setPositions([CGPoint(x: 2e15, y: 0)], for: [id]) }
        Self.rejects("position.y", w) { try w.createItems(ItemDescription(), at: [CGPoint(x: 0, y: -1e16)]) }
        Self.rejects("snapPoint.x", w) { try w.setSnap(to: CGPoint(x: 1e30, y: 0), dampingRatio: 0.5, for: [id]) }
        // Only the second column is out of range: the first must not be written either (found by `make fuzz`).
        Self.rejects("position.y", w) { try w.setPositions([CGPoint(x: 5, y: 1e16)], for: [id]) }
        Self.rejects("velocity.y", w) { try w.setVelocities([CGVector(dx: 5, dy: 2e7)], for: [id]) }
        try w.step(count: 2)
        #expect(w.kineticEnergy.isFinite)
    }

    @Test("updating an attachment to another kind is refused; the same kind with new parameters is taken")
    func updateKind() throws {
        let (w, id) = try Self.world()
        let rod = try w.addAttachments(.rod(), items: [id], to: [nil], anchors: [CGPoint(x: 10, y: -80)])[0]
        Self.rejects("kind", w) { try w.updateAttachment(rod, to: .rope(), length: 100) }
        Self.rejects("kind", w) { try w.updateAttachment(rod, to: .pin(), length: 100) }
        try w.updateAttachment(rod, to: .rod(frequency: 2, damping: 0.5), length: 50)
        try w.step(count: 30)
        #expect(w.kineticEnergy.isFinite)
    }

    @Test("an id from another world is rejected there, even where its slot and generation match")
    func foreignID() throws {
        let (w, id) = try Self.world()
        let (other, twin) = try Self.world()
        #expect(twin.index == id.index && twin.generation == id.generation && twin != id)
        #expect(!other.contains(id) && w.contains(id))
        let hash = other.stateHash()
        #expect(throws: DynamicsError.staleID(id)) { try other.setVelocities([CGVector(dx: 5, dy: 0)], for: [id]) }
        #expect(throws: DynamicsError.staleID(id)) { try other.removeItems([id]) }
        #expect(other.stateHash() == hash && other.itemCount == 1)
    }

    @Test("durations beyond 10⁶ s and negative step counts are refused")
    func durations() throws {
        let (w, _) = try Self.world()
        Self.rejects("duration", w) { try w.step(by: 1e300) }
        Self.rejects("duration", w) { try w.step(by: 1e17) }
        Self.rejects("count", w) { try w.step(count: -5) }
        let before = w.stateHash()
        try w.step(count: 0)
        #expect(w.stateHash() == before)
    }

    /// The message of a trap (standard error of the exit test's process).
    static func message(_ result: ExitTest.Result?) -> String {
        result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    }

    @Test("a gravity magnitude that overflows the kernel's Float traps when set, naming the property")
    func gravityOverflow() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            GravityBehavior().magnitude = 1e300
        }
        #expect(Self.message(result).contains("GravityBehavior.gravityDirection must be finite and within ±1e6"))
    }

    @Test("a push magnitude that overflows the kernel's Float traps when set, naming the property")
    func pushOverflow() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            PushBehavior(items: [], mode: .continuous).magnitude = 1e300
        }
        #expect(Self.message(result).contains("magnitude within ±1e12"))
    }

    @Test("an animator step beyond 10⁶ s traps with the bound")
    func longStep() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            DynamicAnimator().step(by: 1e17)
        }
        #expect(Self.message(result).contains("step(by:) needs a duration of 0…"))
    }

    @Test("stepping an animator from inside an action block traps instead of nesting steps")
    func nestedStep() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let animator = DynamicAnimator()
            let body = DynamicBody(center: .zero, size: CGSize(width: 10, height: 10))
            let gravity = GravityBehavior(items: [body])
            gravity.action = { animator.step(by: 1.0 / 60) }
            animator.addBehavior(gravity)
            animator.step(by: 1.0 / 60)
        }
        #expect(Self.message(result).contains("called from inside a step, an action block or a delegate callback"))
    }

    @Test("a behaviour removed by another's action in the same step does not run its action")
    func removedBehaviourGetsNoAction() {
        let animator = DynamicAnimator()
        let body = DynamicBody(center: .zero, size: CGSize(width: 10, height: 10))
        let first = GravityBehavior(items: [body]), second = DynamicBehavior()
        var calls = 0
        first.action = { animator.removeBehavior(second) }
        second.action = { calls += 1 }
        animator.addBehavior(first)
        animator.addBehavior(second)
        animator.step(by: 1.0 / 60)
        #expect(calls == 0)
    }
}
