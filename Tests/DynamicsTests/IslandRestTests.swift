// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Islands: items joined by touching contacts or attachments rest together, and wake together. The rest
/// rule (the configuration's defaults; the Units and semantics article,
/// Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md, §Rest): an item is still while its speed is below
/// 5 pt/s and it turns slowly (its angular speed below 2°/s, or the corners of its bounds slower than
/// 5 pt/s); an island rests once every member has been still for 0.5 s.
@Suite struct IslandRestTests {
    static let bounds = CGRect(x: 0, y: 0, width: 1000, height: 1000)

    func animator(workers: Int = 1) -> DynamicAnimator {
        var c = DynamicsConfiguration()
        c.workerCount = workers
        return DynamicAnimator(referenceBounds: Self.bounds, configuration: c)
    }

    /// Steps `animator` one fixed step at a time until it pauses (or `timeout` s pass), and returns the
    /// simulated time of the pause and of the last step in which an item moved visibly (by 0.05 pt or more in
    /// one step, 3 pt/s), or nil when it did not pause.
    func runToPause(_ animator: DynamicAnimator, items: [DynamicBody], timeout: Double = 20)
        -> (pause: Double, lastMotion: Double)?
    {
        let dt = 1 / animator.world.configuration.stepsPerSecond
        var last = items.map(\.center)
        var lastMotion = 0.0
        for _ in 0..<Int(timeout / dt) {
            animator.step(by: dt)
            let now = items.map(\.center)
            let moved = zip(now, last).map { hypot($0.x - $1.x, $0.y - $1.y) }.max() ?? 0
            if moved >= 0.05 { lastMotion = animator.elapsedTime }
            last = now
            if !animator.isRunning { return (animator.elapsedTime, lastMotion) }
        }
        return nil
    }

    /// Friction as `DynamicItemBehavior.friction` for `items` (UIKit's default 0 lets stacked boxes slide
    /// off each other for good).
    func friction(_ items: [DynamicBody], _ value: CGFloat = 0.5) -> DynamicItemBehavior {
        let behavior = DynamicItemBehavior(items: items)
        behavior.friction = value
        return behavior
    }

    @Test("a small ball rolling at 0.5 pt/s counts as still and rests; a large box turning at 2.3°/s does not")
    func turningIsMeasuredAtTheCorners() throws {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        let world = try DynamicWorld(configuration: c)
        try world.addBoundary(from: CGPoint(x: -5000, y: 0), to: CGPoint(x: 5000, y: 0))
        // A 22 pt ball rolling on a floor at 0.5 pt/s turns at 0.045 rad/s (2.6°/s, above the 2°/s rest speed),
        // but no point of it moves faster than 1 pt/s: it is still. (It kept a jammed funnel awake for 19 s
        // while it rolled to a wall.) A 400 pt box turning at 0.04 rad/s in empty space moves its corners at
        // 11 pt/s: it is not.
        var ballDescription = ItemDescription(shape: .ellipse(width: 22, height: 22))
        ballDescription.friction = 0.5
        let ball = try world.createItems(ballDescription, at: [CGPoint(x: 0, y: -11)])
        try world.addCollisionShape(.circle(radius: 11), to: ball)
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: ball)
        let box = try world.createItems(ItemDescription(shape: .rectangle(width: 400, height: 400)), at: [CGPoint(x: 0, y: -3000)])
        try world.setVelocities([CGVector(dx: 0.5, dy: 0), .zero], angular: [0.5 / 11, 0.04], for: ball + box)
        try world.step(count: 60)
        #expect(world.isResting(ball[0]), "the ball rolls at \(world.velocity(of: ball[0]).dx) pt/s, \(world.angularVelocity(of: ball[0])) rad/s")
        #expect(!world.isResting(box[0]), "the box turns at \(world.angularVelocity(of: box[0])) rad/s")
    }

    @Test("24 boxes and balls jammed in a funnel's stem come to rest and the animator pauses, with and without friction",
          arguments: [(0.0, 300.0), (0.2, 5.0)])
    func jammedFunnelPauses(friction: Double, timeout: Double) {
        let a = animator()
        // A funnel (funnelPath: slopes from (20, 50) and (300, 50) to a 30 pt stem from y = 400 to 560).
        // Twelve boxes and twelve balls of 20–24 pt fall into it from a grid and jam in the stem: boxes lie
        // on balls against the walls. Without friction (UIKit's default) nothing but the contacts' softness
        // takes the energy of a box rocking on a ball, so the last of them settle slowly.
        let path = funnelPath()
        let items = (0..<24).map { (i: Int) -> DynamicBody in
            let size = Double(20 + (i * 7) % 5)
            return DynamicBody(center: CGPoint(x: 95 + 25 * Double(i % 6), y: 75 + 35 * Double(i / 6)),
                               size: CGSize(width: size, height: size), rotation: 0.3 * Double(i),
                               collisionBoundsType: i % 2 == 1 ? .ellipse : .rectangle)
        }
        let collision = CollisionBehavior(items: items)
        collision.addBoundary(withIdentifier: "funnel", for: path)
        a.addBehavior(collision)
        a.addBehavior(GravityBehavior(items: items))
        a.addBehavior(self.friction(items, friction))
        // It pauses after 134 s without friction and 1.6 s with 0.2 (the same funnel from shifted starts took
        // 3 s to 76 s without friction: CollisionsAndStacking.md). Against the normals and points of each step's
        // start, boxes turning on the balls within the step were pushed along the balls' faces: without
        // friction the jam rocked at 10–30 pt/s for good.
        guard let run = runToPause(a, items: items, timeout: timeout) else {
            Issue.record("friction \(friction): the funnel did not pause in \(timeout) s; \(a.world.awakeItemCount) items awake")
            return
        }
        #expect(a.world.restingItemCount == 24, "friction \(friction): paused at \(run.pause) s")
        #expect(items.allSatisfy { $0.center.y > 50 && $0.center.y < 560 }, "friction \(friction): an item left the funnel")
    }

    @Test("a stack of four boxes on the floor pauses within 1.5 s of its last visible motion",
          arguments: [(CGSize(width: 100, height: 100), 0.0), (CGSize(width: 60, height: 60), 7.0),
                      (CGSize(width: 160, height: 40), 13.0), (CGSize(width: 50, height: 120), 3.0)])
    func stackPauses(size: CGSize, offset: Double) {
        let a = animator()
        let log = DelegateLog()
        a.delegate = log
        // Each box a little off the one below (offset pt alternately left and right), dropped from 20 pt up.
        let boxes = (0..<4).map { (k: Int) -> DynamicBody in
            let x: Double = 500 + (k % 2 == 0 ? offset : -offset)
            let y: Double = 1000 - Double(size.height) * (Double(k) + 0.5) - 20 * Double(k + 1)
            return DynamicBody(center: CGPoint(x: x, y: y), size: size)
        }
        let collision = CollisionBehavior(items: boxes)
        collision.translatesReferenceBoundsIntoBoundary = true
        a.addBehavior(collision)
        a.addBehavior(GravityBehavior(items: boxes))
        a.addBehavior(friction(boxes))
        guard let run = runToPause(a, items: boxes) else {
            Issue.record("the stack of \(size) boxes did not pause in 20 s")
            return
        }
        let (pause, lastMotion) = run
        #expect(pause - lastMotion <= 1.5, "paused at \(pause) s, last visible motion at \(lastMotion) s")
        #expect(log.events == ["resume", "pause"])
        #expect(a.world.restingItemCount == 4 && a.world.awakeItemCount == 0)
        #expect(a.world.islandCount == 1, "one stack, one island: \(a.world.islandCount)")
        // Still stacked: each box on the one below.
        for k in 0..<4 {
            let expected: Double = 1000 - Double(size.height) * (Double(k) + 0.5)
            #expect(abs(boxes[k].center.y - expected) < 2, "box \(k) at \(boxes[k].center.y), not \(expected)")
        }
    }

    @Test("30 balls in a concave bowl come to rest together and the animator pauses")
    func ballsInBowl() {
        let a = animator()
        // A bowl: a half circle of radius 300 pt about (500, 500), as a closed path (rim at y = 500).
        let bowl = BezierPath(arcCenter: CGPoint(x: 500, y: 500), radius: 300, startAngle: 0, endAngle: .pi,
                              clockwise: true)
        var rng = SeededGenerator(seed: 23)
        let balls = (0..<30).map { k in
            let d = 30 + 20 * rng.unit()
            return DynamicBody(center: CGPoint(x: 300 + Double(k % 6) * 80 + 10 * rng.unit(),
                                               y: 100 + Double(k / 6) * 70),
                               size: CGSize(width: d, height: d), collisionBoundsType: .ellipse)
        }
        let collision = CollisionBehavior(items: balls)
        collision.addBoundary(withIdentifier: "bowl", for: bowl)
        a.addBehavior(collision)
        a.addBehavior(GravityBehavior(items: balls))
        a.addBehavior(friction(balls))
        guard let run = runToPause(a, items: balls, timeout: 30) else {
            Issue.record("the balls in the bowl did not pause in 30 s; awake \(a.world.awakeItemCount)")
            return
        }
        let (pause, lastMotion) = run
        #expect(pause - lastMotion <= 1.5, "paused at \(pause) s, last visible motion at \(lastMotion) s")
        for ball in balls {  // every ball inside the bowl
            let r = hypot(ball.center.x - 500, ball.center.y - 500) + ball.bounds.width / 2
            #expect(r < 302 && ball.center.y > 480, "ball at \(ball.center)")
        }
    }

    /// Two stacks of three boxes on the floor, 400 pt apart, at rest.
    func twoRestingStacks(_ a: DynamicAnimator)
        -> (left: [DynamicBody], right: [DynamicBody], CollisionBehavior, GravityBehavior, DynamicItemBehavior)
    {
        let stack = { (x: Double) in (0..<3).map { k in square(at: CGPoint(x: x, y: 950 - 100 * Double(k))) } }
        let left = stack(300), right = stack(700)
        let collision = CollisionBehavior(items: left + right)
        collision.translatesReferenceBoundsIntoBoundary = true
        let gravity = GravityBehavior(items: left + right)
        a.addBehavior(collision)
        a.addBehavior(gravity)
        let material = friction(left + right)
        a.addBehavior(material)
        #expect(a.runUntilPaused(timeout: 5))
        #expect(a.world.islandCount == 2, "two stacks on one floor are two islands: \(a.world.islandCount)")
        return (left, right, collision, gravity, material)
    }

    @Test("a box dropped onto a resting stack wakes that stack's island, not the other stack")
    func dropWakesOneIsland() {
        let a = animator()
        let (left, right, collision, _, _) = twoRestingStacks(a)
        let dropped = square(at: CGPoint(x: 300, y: 300))
        collision.addItem(dropped)
        let gravity = GravityBehavior(items: [dropped])
        a.addBehavior(gravity)
        #expect(a.world.awakeItemCount == 1)
        var leftWoke = false
        for _ in 0..<120 {  // it lands after about 0.85 s
            a.step(by: 1.0 / 60)
            leftWoke = leftWoke || a.world.awakeItemCount == 4
            #expect(a.world.awakeItemCount <= 4, "the other stack woke: \(a.world.awakeItemCount) awake")
        }
        #expect(leftWoke, "the stack that was hit did not wake")
        let rightBefore = right.map(\.center)
        #expect(a.runUntilPaused(timeout: 5))
        #expect(right.map(\.center) == rightBefore, "the other stack moved")
        // The box lands on the stack, which stands. The stack wakes as the box is about to touch it, and takes
        // the 840 pt/s blow as an awake stack does: its boxes shift by up to 13 pt (a stack that never rested,
        // hit the same way, shifts by 8 pt; before the stack woke on the approach, it stopped the box as an
        // anchored item would and barely moved).
        #expect(abs(dropped.center.y - 650) < 2 && left.allSatisfy { abs($0.center.x - 300) < 20 },
                "dropped box at \(dropped.center), stack at \(left.map(\.center))")
        #expect(a.world.islandCount == 2)
    }

    @Test("velocity added to the top box of a resting stack wakes its whole island, not the other stack")
    func addedVelocityWakesIsland() {
        let a = animator()
        let (left, _, _, _, material) = twoRestingStacks(a)
        material.addLinearVelocity(CGPoint(x: 100, y: 0), for: left[2])
        #expect(a.isRunning)
        a.step(by: 1.0 / 60)
        #expect(a.world.awakeItemCount == 3, "awake: \(a.world.awakeItemCount)")
        #expect(a.runUntilPaused(timeout: 5))
        // Coulomb: it slides v²/(2μg) = 100² / (2 · 0.5 · 1000) = 10 pt on the box below, which holds.
        #expect(abs(left[2].center.x - 310) < 1.5, "the top box slid to \(left[2].center.x)")
        #expect(abs(left[1].center.x - 300) < 1, "the middle box moved to \(left[1].center.x)")
    }

    @Test("removing the bottom box of a resting stack wakes the stack, which falls onto the floor")
    func removingSupportWakes() {
        let a = animator()
        let (left, right, collision, gravity, material) = twoRestingStacks(a)
        collision.removeItem(left[0])  // out of every behaviour: out of the animator
        gravity.removeItem(left[0])
        material.removeItem(left[0])
        a.step(by: 1.0 / 60)
        #expect(a.world.awakeItemCount == 2, "awake after removing the bottom box: \(a.world.awakeItemCount)")
        #expect(a.isRunning)
        #expect(a.runUntilPaused(timeout: 5))
        #expect(abs(left[1].center.y - 950) < 2 && abs(left[2].center.y - 850) < 2,
                "the stack fell onto the floor: \(left[1].center.y), \(left[2].center.y)")
        #expect(right.map(\.center.y).enumerated().allSatisfy { abs($1 - (950 - 100 * Double($0))) < 2 })
    }
}

/// The reference pile with rest detection on: it comes to rest island by island, and a step of a world at
/// rest visits no stage.
@Suite struct PileRestTests {
    /// Steps `world` until every item rests or `seconds` pass; returns the simulated time of rest.
    func settle(_ world: DynamicWorld, seconds: Double) throws -> Double? {
        for _ in 0..<Int(seconds * world.configuration.stepsPerSecond) where world.awakeItemCount > 0 {
            try world.step(count: 1)
        }
        return world.awakeItemCount == 0 ? world.elapsedTime : nil
    }

    @Test("the 10 000-box pile comes to rest; then a step changes nothing and runs no stage")
    func largePileRests() throws {
        var c = DynamicsConfiguration()
        c.workerCount = 2
        let world = try Scene.pile.makeWorld(items: 10_000, configuration: c, keepRestDetection: true)
        let rest = try settle(world, seconds: 30)
        #expect(rest != nil, "\(world.awakeItemCount) of 10 000 items still awake after 30 s")
        #expect(world.restingItemCount == 10_000)
        // The pile is one heap on one floor, but touching items only: it may be a few islands, never one per box.
        #expect(world.islandCount >= 1 && world.islandCount < 100, "\(world.islandCount) islands")
        let hash = world.stateHash(), contacts = world.contactCount
        try world.step(count: 2)
        #expect(world.stateHash() == hash && world.contactCount == contacts)
        let p = world.lastStepProfile
        #expect(p.awakeItems == 0 && p.solveNanoseconds == 0 && p.broadphaseNanoseconds == 0
                && p.narrowphaseNanoseconds == 0 && p.contactSolveNanoseconds == 0)
    }

    @Test("a pile rests at the same step with the same state for 1, 2 and 3 workers", arguments: [1_000])
    func restIsDeterministic(items: Int) throws {
        var results: [(Double?, UInt64, Int)] = []
        for workers in 1...3 {
            var c = DynamicsConfiguration()
            c.workerCount = workers
            let world = try Scene.pile.makeWorld(items: items, configuration: c, keepRestDetection: true)
            // Stop while islands are still forming and resting, then at rest.
            try world.step(count: 300)
            let midHash = world.stateHash()
            let rest = try settle(world, seconds: 40)
            results.append((rest, midHash ^ world.stateHash(), world.islandCount))
        }
        #expect(results[0].0 != nil, "the \(items)-box pile did not rest in 45 s")
        for r in results.dropFirst() {
            #expect(r.0 == results[0].0 && r.1 == results[0].1 && r.2 == results[0].2, "\(results)")
        }
    }
}
