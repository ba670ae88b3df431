// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// Kinematic items (beyond UIKit): they move at the velocity set on them and nothing else changes it, so their
/// motion is the closed form x = x₀ + v·t, θ = θ₀ + ω·t; they push dynamic items without being pushed, carry
/// what rests on them, meet neither anchored items nor boundaries nor each other, wake what they touch, and rest
/// only when still (``ItemDescription/isKinematic``).
@Suite struct KinematicItemTests {
    static var kinematic: ItemDescription {
        var d = ItemDescription()
        d.isKinematic = true
        return d
    }

    /// A world with a kinematic 100 × 100 pt box at the origin and a collision shape on it.
    func world(rest: Bool = false, workers: Int = 1, simd: SIMDLevel = .automatic) throws -> (DynamicWorld, ItemID) {
        var c = DynamicsConfiguration()
        c.workerCount = workers
        c.simd = simd
        c.restDetection = rest
        let w = try DynamicWorld(configuration: c)
        let k = try w.createItems(Self.kinematic, at: [.zero])[0]
        try w.addCollisionShape(.rectangle(width: 100, height: 100), to: [k])
        return (w, k)
    }

    @Test("a kinematic item moves at its velocity alone: gravity, forces, resistance and fields leave it be")
    func closedForm() throws {
        let (w, k) = try world()
        try w.setVelocities([CGVector(dx: 120, dy: -30)], angular: [0.5], for: [k])
        try w.setGravity(CGVector(dx: 0, dy: 1000), for: [k])
        try w.setForce(CGVector(dx: 50, dy: 0), for: [k])
        try w.setResistance(3, angular: 3, for: [k])
        try w.step(count: 120)
        let pose = w.pose(of: k)
        #expect(abs(pose.center.x - 240) < 1e-3 && abs(pose.center.y + 60) < 1e-3, "centre \(pose.center)")
        #expect(abs(pose.angle - 1) < 1e-5, "angle \(pose.angle)")
        #expect(w.velocity(of: k) == CGVector(dx: 120, dy: -30) && w.angularVelocity(of: k) == 0.5)
        #expect(w.mass(of: k) == 1, "a kinematic item keeps the mass of its shape and density")
    }

    @Test("a kinematic wall pushes a box ahead of it and is not slowed", arguments: [SIMDLevel.automatic, .scalar])
    func pushes(simd: SIMDLevel) throws {
        let (w, wall) = try world(simd: simd)
        let box = try w.createItems(ItemDescription(), at: [CGPoint(x: 300, y: 0)])[0]
        try w.addCollisionShape(.rectangle(width: 100, height: 100), to: [box])
        try w.setVelocities([CGVector(dx: 200, dy: 0)], for: [wall])
        try w.step(count: 120) // the wall meets the box after 0.5 s and pushes it for 1.5 s
        #expect(w.velocity(of: wall) == CGVector(dx: 200, dy: 0))
        #expect(abs(w.pose(of: wall).center.x - 400) < 5e-3) // 480 substeps of Float sums
        let v = w.velocity(of: box), gap = w.pose(of: box).center.x - w.pose(of: wall).center.x
        #expect(abs(v.dx - 200) < 2 && abs(v.dy) < 1e-3, "the box moves at \(v)")
        #expect(gap > 98 && gap < 102, "the box is \(gap) pt ahead of the wall's centre")
    }

    @Test("a box rides a kinematic platform by friction, and both keep to the platform's velocity")
    func carries() throws {
        let (w, platform) = try world()
        try w.setMassProperties({ var d = Self.kinematic; d.shape = .rectangle(width: 400, height: 20); return d }(), for: [platform])
        try w.removeCollisionShapes(from: [platform])
        try w.addCollisionShape(.rectangle(width: 400, height: 20), to: [platform])
        try w.setMaterial(elasticity: 0, friction: 0.6, charge: 0, for: [platform])
        var boxDescription = ItemDescription()
        boxDescription.friction = 0.6
        let box = try w.createItems(boxDescription, at: [CGPoint(x: 0, y: -60)])[0]
        try w.addCollisionShape(.rectangle(width: 100, height: 100), to: [box])
        try w.setGravity(CGVector(dx: 0, dy: 1000), for: [box, platform])
        try w.setVelocities([CGVector(dx: 50, dy: 0)], for: [platform])
        try w.step(count: 120)
        #expect(abs(w.velocity(of: box).dx - 50) < 0.5, "the box moves at \(w.velocity(of: box))")
        #expect(abs(w.pose(of: box).center.y + 60) < 1, "the box sank or rose to \(w.pose(of: box).center.y)")
        #expect(abs(w.pose(of: platform).center.x - 100) < 1e-3 && w.pose(of: platform).center.y == 0)
    }

    @Test("a kinematic item goes through anchored items, boundaries and other kinematic items without a contact")
    func meetsDynamicOnly() throws {
        let (w, k) = try world()
        var anchored = ItemDescription()
        anchored.isAnchored = true
        let wall = try w.createItems(anchored, at: [CGPoint(x: 200, y: 0)])[0]
        let other = try w.createItems(Self.kinematic, at: [CGPoint(x: 400, y: 0)])[0]
        try w.addCollisionShape(.rectangle(width: 100, height: 100), to: [wall, other])
        try w.addBoundary(from: CGPoint(x: 600, y: -200), to: CGPoint(x: 600, y: 200))
        try w.setVelocities([CGVector(dx: 600, dy: 0)], for: [k])
        var events = 0
        for _ in 0..<90 {
            try w.step(count: 1)
            events += w.contactEvents.count
        }
        #expect(abs(w.pose(of: k).center.x - 900) < 1e-2 && w.pose(of: other).center == CGPoint(x: 400, y: 0))
        #expect(events == 0 && w.contactCount == 0, "\(events) contact events")
    }

    @Test("a kinematic item takes part in contact events with the dynamic items it meets")
    func events() throws {
        let (w, k) = try world()
        let box = try w.createItems(ItemDescription(), at: [CGPoint(x: 300, y: 0)])[0]
        try w.addCollisionShape(.rectangle(width: 100, height: 100), to: [box])
        try w.setVelocities([CGVector(dx: 600, dy: 0)], for: [k])
        var began: [ContactEvent] = []
        for _ in 0..<30 {
            try w.step(count: 1)
            began += w.contactEvents.filter(\.began)
        }
        #expect(began.count == 1 && Set([began.first?.first, began.first?.second]) == [.item(k), .item(box)])
    }

    @Test("a slow kinematic pusher wakes the resting box it touches, and neither rests while it moves")
    func wakesAndRests() throws {
        let (w, pusher) = try world(rest: true)
        let box = try w.createItems(ItemDescription(), at: [CGPoint(x: 110, y: 0)])[0]
        try w.addCollisionShape(.rectangle(width: 100, height: 100), to: [box])
        try w.putToRest([box])
        try w.setVelocities([CGVector(dx: 2, dy: 0)], for: [pusher]) // below the rest speed of 5 pt/s
        try w.step(count: 600) // 10 s: 20 pt
        #expect(!w.isResting(pusher) && !w.isResting(box))
        #expect(w.pose(of: box).center.x > 115, "the box was not pushed: \(w.pose(of: box).center.x)")
        #expect(w.pose(of: box).center.x - w.pose(of: pusher).center.x > 98, "the pusher went into the box")
        try w.setVelocities([.zero], angular: [0], for: [pusher])
        try w.step(count: 60) // rests after 0.5 s still
        #expect(w.isResting(pusher) && w.isResting(box))
    }

    @Test("drive(_:to:angles:) brings a kinematic item to the pose at the end of the next step")
    func drive() throws {
        let (w, k) = try world()
        try w.drive([k], to: [CGPoint(x: 30, y: -12)], angles: [0.25])
        #expect(abs(w.velocity(of: k).dx - 1800) < 1e-2 && abs(w.angularVelocity(of: k) - 15) < 1e-4)
        try w.step(count: 1)
        let pose = w.pose(of: k)
        #expect(abs(pose.center.x - 30) < 1e-3 && abs(pose.center.y + 12) < 1e-3 && abs(pose.angle - 0.25) < 1e-5)
        #expect(throws: DynamicsError.invalidValue(field: "positions.count", value: 2, index: nil)) {
            try w.drive([k], to: [.zero, .zero])
        }
    }

    @Test("a box welded to a turning kinematic hub goes round with it: the weld follows the hub within each step",
          arguments: [SIMDLevel.automatic, .scalar])
    func weldedToKinematic(simd: SIMDLevel) throws {
        let (w, hub) = try world(simd: simd)
        let box = try w.createItems(ItemDescription(shape: .rectangle(width: 40, height: 40)), at: [CGPoint(x: 200, y: 0)])[0]
        try w.addAttachments(.weld(), items: [box], to: [hub], anchors: [CGPoint(x: 200, y: 0)])
        let omega: CGFloat = 2 // the box's rim speed is 400 pt/s: a step's lag would be 6.7 pt
        try w.setVelocities([.zero], angular: [omega], for: [hub])
        var worst: CGFloat = 0
        for step in 1...90 {
            try w.step(count: 1)
            let t = CGFloat(step) / 60, p = w.pose(of: box)
            worst = max(worst, hypot(p.center.x - 200 * cos(omega * t), p.center.y - 200 * sin(omega * t)))
            #expect(abs(p.angle - omega * t) < 0.02, "angle \(p.angle) at \(t) s")
        }
        #expect(worst < 2, "the box strayed \(worst) pt from the hub's rim")
    }

    @Test("an item cannot be both anchored and kinematic: that throws naming isKinematic")
    func anchoredAndKinematic() throws {
        let w = try DynamicWorld()
        var d = Self.kinematic
        d.isAnchored = true
        #expect(throws: DynamicsError.invalidValue(field: "isKinematic", value: 1, index: nil)) {
            _ = try w.createItems(d, at: [.zero])
        }
        #expect(w.itemCount == 0)
    }

    @Test("a kinematic paddle stirring a pile gives the same bits at 1 and 2 workers and on the scalar path")
    func determinism() throws {
        var hashes: Set<UInt64> = []
        for (workers, simd) in [(1, SIMDLevel.automatic), (2, .automatic), (2, .scalar)] {
            let (w, paddle) = try world(workers: workers, simd: simd)
            var g = SeededGenerator(seed: 7)
            let boxes = try w.createItems(ItemDescription(), at: (0..<300).map { k in
                CGPoint(x: -600 + 60 * Double(k % 20) + g.unit(), y: -100 - 60 * Double(k / 20))
            })
            try w.addCollisionShape(.rectangle(width: 40, height: 40), to: boxes)
            try w.setGravity(CGVector(dx: 0, dy: 1000), for: boxes)
            try w.addBoundary(from: CGPoint(x: -800, y: 200), to: CGPoint(x: 800, y: 200))
            try w.setVelocities([CGVector(dx: 0, dy: 0)], angular: [2], for: [paddle])
            try w.step(count: 120)
            hashes.insert(w.stateHash())
        }
        #expect(hashes.count == 1, "\(hashes.count) different states")
    }

    @Test("DynamicItemBehavior.isKinematic: a view given a velocity keeps it under gravity and collisions")
    func animator() throws {
        let animator = makeAnimator()
        let paddle = square(), ball = square(at: CGPoint(x: 0, y: -300), size: CGSize(width: 40, height: 40))
        let material = DynamicItemBehavior(items: [paddle])
        material.isKinematic = true
        animator.addBehavior(material)
        animator.addBehavior(GravityBehavior(items: [paddle, ball]))
        animator.addBehavior(CollisionBehavior(items: [paddle, ball]))
        material.addLinearVelocity(CGPoint(x: 0, y: -100), for: paddle)
        animator.step(by: 1)
        #expect(abs(paddle.center.y + 100) < 1e-2, "the paddle is at \(paddle.center)")
        #expect(ball.center.y < paddle.center.y - 60, "the ball went through the paddle: \(ball.center)")
    }
}
