// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Records collision delegate calls.
final class ContactLog: CollisionBehaviorDelegate {
    var events: [String] = []
    var points: [CGPoint] = []
    /// The thread of each call.
    var threads: [Thread] = []
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem,
                           with item2: any DynamicItem, at point: CGPoint) {
        events.append("began items")
        points.append(point)
        threads.append(Thread.current)
    }
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem,
                           with item2: any DynamicItem) {
        events.append("ended items")
        threads.append(Thread.current)
    }
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?, at point: CGPoint) {
        events.append("began \(identifier.map { "\($0)" } ?? "bounds")")
        points.append(point)
        threads.append(Thread.current)
    }
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?) {
        events.append("ended \(identifier.map { "\($0)" } ?? "bounds")")
        threads.append(Thread.current)
    }
}

@Suite struct CollisionTests {
    let bounds = CGRect(x: 0, y: 0, width: 1000, height: 1000)

    func animator() -> DynamicAnimator {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        return DynamicAnimator(referenceBounds: bounds, configuration: c)
    }

    /// Ten 100 pt boxes stacked on the floor of the reference bounds, touching, under gravity, friction 0.6;
    /// the last is the top one (centre 50 pt below the bounds' top).
    func column(on a: DynamicAnimator) -> [DynamicBody] {
        let boxes = (0..<10).map { DynamicBody(center: CGPoint(x: 500, y: 950 - 100 * CGFloat($0)),
                                               size: CGSize(width: 100, height: 100)) }
        let collision = CollisionBehavior(items: boxes)
        collision.translatesReferenceBoundsIntoBoundary = true
        let material = DynamicItemBehavior(items: boxes)
        material.friction = 0.6
        a.addBehavior(GravityBehavior(items: boxes))
        a.addBehavior(collision)
        a.addBehavior(material)
        return boxes
    }

    @Test("a 10-box stack on the reference bounds stands for 10 s")
    func stack() {
        let a = animator()
        let boxes = column(on: a)
        a.step(by: 10)
        let top = boxes.last!
        #expect(abs(top.center.x - 500) < 5 && abs(top.center.y - 50) < 5, "top at \(top.center)")
        #expect(abs(top.rotation) < 0.01)
    }

    /// A soft contact point of normal mass k and angular frequency ω = 2π·f comes to rest where the spring
    /// carries its load P: overlap P / (k·ω²). In a column of 100 pt boxes each of the two points under a
    /// box carries half the weight above it; between two boxes k = m/5 (each box adds 1/m + (50 pt)²/I with
    /// I = m·(100² + 100²)/12), against the floor k = m/2.5 at twice the frequency. So the top of a column of
    /// 10 sinks (2.5·(1 + … + 9) + 2.5·10/2/4)·g/ω² = 115.625·g/ω².
    @Test("a resting column's overlaps follow the soft-contact law at the configured frequency",
          arguments: [(4, 30.0, 1, 30.0), (8, 120.0, 2, 120.0), (4, 200.0, 2, 60.0)])
    func contactLaw(substeps: Int, frequency: Double, iterations: Int, effective: Double) throws {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        c.substeps = substeps
        c.contactFrequency = frequency   // the third case asks for more than a quarter of 240 Hz: 60 Hz
        c.solverIterations = iterations
        c.restDetection = false
        let a = DynamicAnimator(referenceBounds: bounds, configuration: c)
        let boxes = column(on: a)
        a.step(by: 5)
        let omega = 2 * Double.pi * effective
        let predicted = 115.625 * 1000 / (omega * omega)
        let sink = Double(boxes.last!.center.y) - 50
        #expect(abs(sink - predicted) < 0.01 * predicted + 0.001, "sank \(sink) pt, law \(predicted) pt")
    }

    /// Stiff enough for the pyramid's top to stay within 5 pt: 8 substeps, 120 Hz contacts, 2 iterations.
    var stiff: DynamicsConfiguration {
        var c = DynamicsConfiguration()
        c.substeps = 8
        c.contactFrequency = 120
        c.solverIterations = 2
        return c
    }

    @Test("reconfiguring the contact frequency and iterations before a step equals creating the world with them")
    func reconfigureSolver() throws {
        var stiff = self.stiff
        stiff.restDetection = false  // as the pile scene sets it
        let created = try Scene.pile.makeWorld(items: 300, configuration: stiff)
        var base = stiff
        base.contactFrequency = 30
        base.solverIterations = 1
        let reconfigured = try Scene.pile.makeWorld(items: 300, configuration: base)
        let untouched = try Scene.pile.makeWorld(items: 300, configuration: base)
        try reconfigured.reconfigure(stiff)
        for world in [created, reconfigured, untouched] { try world.step(count: 60) }
        #expect(reconfigured.stateHash() == created.stateHash())
        #expect(untouched.stateHash() != created.stateHash())
    }

    @Test("the 5 050-box pyramid of the benchmark scenes stands for 10 s")
    func pyramid() throws {
        let world = try Scene.pyramid.makeWorld()
        let ids = world.itemIDs()
        #expect(ids.count == 5050)
        let top = ids.min { world.pose(of: $0).center.y < world.pose(of: $1).center.y }!
        let start = world.pose(of: top).center
        try world.step(count: 600)
        let end = world.pose(of: top).center
        #expect(abs(end.x - start.x) < 5, "top box drifted \(end.x - start.x) pt sideways")
        // Soft contacts carry the load with a small overlap per layer. Box2D 3.1 (pyb2d3, same scene, 10 s)
        // lets the top box sink 73 pt; here it sinks about 74 pt. A collapse would drop it by thousands.
        // (The issue asks for 5 pt: stiffPyramid below reaches it with stiffer contacts and more substeps.)
        #expect(end.y - start.y < 80, "top box sank \(end.y - start.y) pt")
        // At rest, as Box2D's is: the symmetric colour sweep settles the sway (kinetic energy about 1 here
        // after 10 s; with a one-way sweep it was 10²–10⁴ and the top swayed by ±5 pt).
        #expect(world.kineticEnergy < 50, "still moving: kinetic energy \(world.kineticEnergy)")
    }

    @Test("the 5 050-box pyramid's top stays within 5 pt for 10 s with 8 substeps, 120 Hz contacts and 2 iterations")
    func stiffPyramid() throws {
        // The overlaps scale with 1/f² (see contactLaw): 74 pt at 30 Hz becomes about 4.7 pt at 120 Hz. A
        // quarter of the substep rate is the cap, so 120 Hz needs 8 substeps; with one solver iteration the
        // pyramid does not converge at that stiffness and topples (kinetic energy 10⁶ after 2 s).
        let world = try Scene.pyramid.makeWorld(configuration: stiff)
        let ids = world.itemIDs()
        let top = ids.min { world.pose(of: $0).center.y < world.pose(of: $1).center.y }!
        let start = world.pose(of: top).center
        try world.step(count: 600)
        let end = world.pose(of: top).center
        #expect(hypot(end.x - start.x, end.y - start.y) < 5, "top box moved by \(end.x - start.x), \(end.y - start.y) pt")
        #expect(world.kineticEnergy < 50, "still moving: kinetic energy \(world.kineticEnergy)")
    }

    @Test("the contact solver gives the same bits at every SIMD level and for 1, 2, 3, 4 and 8 workers",
          arguments: [1, 3])
    func wideEqualsScalar(iterations: Int) throws {
        func hash(_ simd: SIMDLevel, workers: Int) throws -> UInt64 {
            var c = DynamicsConfiguration()
            c.simd = simd
            c.workerCount = workers
            c.solverIterations = iterations
            let world = try Scene.pile.makeWorld(items: 300, configuration: c)
            try world.step(count: 90)
            #expect(world.contactCount > 200)
            return world.stateHash()
        }
        let reference = try hash(.scalar, workers: 1)
        for level in [SIMDLevel.sse2, .avx2, .avx512, .automatic] {
            #expect(try hash(level, workers: 1) == reference, "\(level)")
        }
        for workers in [2, 3, 4, 8] { #expect(try hash(.automatic, workers: workers) == reference, "workers \(workers)") }
    }

    @Test("a 3 000-box pile gives the same contact events, in the same order, for 1, 2 and 3 workers")
    func eventsForAnyWorkerCount() throws {
        // Events as text without the world's tag in item ids (each world tags its own ids).
        func text(_ p: ContactEvent.Party) -> String {
            switch p {
            case .item(let id): "item \(id.index).\(id.generation)"
            case .boundary(let id): "boundary \(id.index).\(id.generation)"
            }
        }
        func run(workers: Int) throws -> (events: [[String]], hash: UInt64) {
            var c = DynamicsConfiguration()
            c.workerCount = workers
            let world = try Scene.pile.makeWorld(items: 3000, configuration: c)
            var events: [[String]] = []
            for _ in 0..<80 {
                try world.step(count: 1)
                events.append(world.contactEvents.map { e in
                    "\(e.began) \(text(e.first)) \(text(e.second)) \(e.point.map { "\($0.x),\($0.y)" } ?? "-")"
                })
            }
            return (events, world.stateHash())
        }
        let reference = try run(workers: 1)
        #expect(reference.events.joined().filter { $0.hasPrefix("true") }.count > 3000)
        for workers in [2, 3] {
            let other = try run(workers: workers)
            #expect(other.hash == reference.hash, "workers \(workers)")
            let firstDifference = reference.events.indices.first { other.events[$0] != reference.events[$0] }
            #expect(firstDifference == nil, "workers \(workers): events differ at step \(firstDifference ?? -1)")
        }
    }

    @Test("a ball of elasticity 1 keeps ≥ 95 % of its bounce height after 5 bounces; elasticity 0 does not bounce")
    func bounce() {
        func heights(elasticity: CGFloat) -> [CGFloat] {
            let ball = DynamicBody(center: CGPoint(x: 500, y: 400), size: CGSize(width: 100, height: 100),
                                   collisionBoundsType: .ellipse)
            let a = animator()
            let collision = CollisionBehavior(items: [ball])
            collision.translatesReferenceBoundsIntoBoundary = true
            let material = DynamicItemBehavior(items: [ball])
            material.elasticity = elasticity
            a.addBehavior(GravityBehavior(items: [ball]))
            a.addBehavior(collision)
            a.addBehavior(material)
            var apexes: [CGFloat] = [], previous: CGFloat = 0, highest: CGFloat = 1000
            material.action = { [unowned material] in  // the behaviour owns its action: no cycle
                let v = material.linearVelocity(for: ball).y
                highest = min(highest, ball.center.y)
                if previous < 0 && v >= 0 { apexes.append(950 - highest); highest = 1000 }  // bottom's height
                previous = v
            }
            a.step(by: 12)
            return apexes
        }
        let elastic = heights(elasticity: 1)
        #expect(elastic.count >= 5)
        if elastic.count >= 5 { #expect(elastic[4] >= 0.95 * 500, "apex heights \(elastic)") }
        #expect((heights(elasticity: 0).max() ?? 0) < 5)
    }

    @Test("an item at 10 000 pt/s does not pass through a boundary or a 10 pt thick anchored item")
    func noTunnelling() {
        let a = animator()
        let bullet = DynamicBody(center: CGPoint(x: 300, y: 100), size: CGSize(width: 20, height: 20))
        let wallHit = DynamicBody(center: CGPoint(x: 700, y: 100), size: CGSize(width: 20, height: 20))
        let plate = DynamicBody(center: CGPoint(x: 300, y: 600), size: CGSize(width: 300, height: 10))
        let collision = CollisionBehavior(items: [bullet, plate, wallHit])
        collision.translatesReferenceBoundsIntoBoundary = true
        let anchor = DynamicItemBehavior(items: [plate])
        anchor.isAnchored = true
        let speedy = DynamicItemBehavior(items: [bullet, wallHit])
        a.addBehavior(collision)
        a.addBehavior(anchor)
        a.addBehavior(speedy)
        speedy.addLinearVelocity(CGPoint(x: 0, y: 10_000), for: bullet)
        speedy.addLinearVelocity(CGPoint(x: 10_000, y: 0), for: wallHit)
        // Elasticity 0 and no gravity: each stops against what it hit (the plate's top at 595 pt, the right wall
        // at 1 000 pt), its farthest corner never 2 pt past it (0.8 pt in the step of impact). The impact turns
        // a box a little (its two points are solved one after the other), so it may end on a corner, up to
        // 11.2 pt from its centre.
        func reach(_ item: DynamicBody) -> CGFloat { 10 * (abs(cos(item.rotation)) + abs(sin(item.rotation))) }
        var deepest: CGFloat = 0
        for _ in 0..<30 {
            a.step(by: 1.0 / 60)
            deepest = max(deepest, bullet.center.y + reach(bullet) - 595, wallHit.center.x + reach(wallHit) - 1000)
        }
        #expect(deepest < 2, "a box went \(deepest) pt past what it hit")
        #expect(abs(bullet.center.y + reach(bullet) - 595) < 1, "the bullet is at y = \(bullet.center.y), not on the plate")
        #expect(abs(wallHit.center.x + reach(wallHit) - 1000) < 1, "the box is at x = \(wallHit.center.x), not at the wall")
        for box in [bullet, wallHit] {
            let v = speedy.linearVelocity(for: box)
            #expect(hypot(v.x, v.y) < 10, "still moving at \(v) after 0.5 s (it hit at 10 000 pt/s)")
        }
        #expect(plate.center == CGPoint(x: 300, y: 600))
    }

    @Test("items of different collision behaviours pass through each other")
    func separateBehaviours() {
        let a = animator()
        let falling = DynamicBody(center: CGPoint(x: 500, y: 100), size: CGSize(width: 100, height: 100))
        let resting = DynamicBody(center: CGPoint(x: 500, y: 950), size: CGSize(width: 100, height: 100))
        let floorOnly = CollisionBehavior(items: [falling])
        floorOnly.addBoundary(withIdentifier: "floor", from: CGPoint(x: 0, y: 1000), to: CGPoint(x: 1000, y: 1000))
        let other = CollisionBehavior(items: [resting])
        other.translatesReferenceBoundsIntoBoundary = true
        a.addBehavior(GravityBehavior(items: [falling, resting]))
        a.addBehavior(floorOnly)
        a.addBehavior(other)
        a.step(by: 2)
        #expect(abs(falling.center.y - 950) < 2 && abs(resting.center.y - 950) < 2, "\(falling.center) \(resting.center)")
    }

    @Test(".items ignores boundaries; .boundaries ignores items; .everything collides with both")
    func modes() {
        /// The final heights of a box dropped onto an anchored box and of one dropped beside it, after 1 s.
        func run(_ mode: CollisionBehavior.Mode) -> (onItem: CGFloat, beside: CGFloat) {
            let a = animator()
            let top = DynamicBody(center: CGPoint(x: 500, y: 700), size: CGSize(width: 100, height: 100))
            let beside = DynamicBody(center: CGPoint(x: 200, y: 700), size: CGSize(width: 100, height: 100))
            let bottom = DynamicBody(center: CGPoint(x: 500, y: 900), size: CGSize(width: 100, height: 100))
            let collision = CollisionBehavior(items: [top, beside, bottom])
            collision.translatesReferenceBoundsIntoBoundary = true
            collision.collisionMode = mode
            let anchor = DynamicItemBehavior(items: [bottom])
            anchor.isAnchored = true
            a.addBehavior(GravityBehavior(items: [top, beside]))
            a.addBehavior(collision)
            a.addBehavior(anchor)
            a.step(by: 1)
            return (top.center.y, beside.center.y)
        }
        let itemsOnly = run(.items), boundariesOnly = run(.boundaries), everything = run(.everything)
        // Free fall from 700 pt for 1 s at 1 000 pt/s², 240 substeps of semi-implicit Euler: past the floor at 1 000.
        let fallen = 700 + 0.5 * 1000 * (1 + 1.0 / 240)
        #expect(abs(itemsOnly.onItem - 800) < 2, "lands on the other item: \(itemsOnly)")
        #expect(abs(itemsOnly.beside - fallen) < 0.01, "falls through the floor: \(itemsOnly)")
        #expect(abs(boundariesOnly.onItem - 950) < 2, "passes the item, lands on the floor: \(boundariesOnly)")
        #expect(abs(boundariesOnly.beside - 950) < 2, "lands on the floor: \(boundariesOnly)")
        #expect(abs(everything.onItem - 800) < 2 && abs(everything.beside - 950) < 2, "\(everything)")
    }

    @Test("began and ended contact events pair up exactly, with points on the contact")
    func eventsPairUp() {
        let a = animator()
        let ball = DynamicBody(center: CGPoint(x: 500, y: 500), size: CGSize(width: 100, height: 100),
                               collisionBoundsType: .ellipse)
        let log = ContactLog()
        let collision = CollisionBehavior(items: [ball])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = log
        let material = DynamicItemBehavior(items: [ball])
        material.elasticity = 0.8
        a.addBehavior(GravityBehavior(items: [ball]))
        a.addBehavior(collision)
        a.addBehavior(material)
        a.step(by: 4)
        let began = log.events.filter { $0 == "began bounds" }.count, ended = log.events.filter { $0 == "ended bounds" }.count
        #expect(began >= 3, "events \(log.events)")
        #expect(began == ended || began == ended + 1)
        for (k, e) in log.events.enumerated() where k > 0 { #expect(e != log.events[k - 1], "two \(e) in a row") }
        for p in log.points { #expect(abs(p.y - 1000) < 3 && abs(p.x - 500) < 3, "point \(p)") }
    }

    /// Contacts touch within 2 pt (the Collisions and stacking article). Two squares turned 45°, corner to corner, are d apart, but
    /// their faces' separating axes measure only d·cos 45°: at d = 2.5 pt that is 1.77 pt, and a contact
    /// that trusted it alone began touching.
    @Test("squares turned 45°, corner to corner, touch at 1.5 pt apart and not at 2.5 pt",
          arguments: [(1.5, true), (2.5, false)])
    func cornersTouchWithin2pt(gap: Double, touches: Bool) {
        let a = animator()
        let reach = 50 * 2.0.squareRoot() + gap / 2   // half a diagonal, and half the gap
        let boxes = [-1.0, 1.0].map {
            DynamicBody(center: CGPoint(x: 500 + $0 * reach, y: 500), size: CGSize(width: 100, height: 100),
                        rotation: .pi / 4)
        }
        let log = ContactLog()
        let collision = CollisionBehavior(items: boxes)
        collision.collisionDelegate = log
        a.addBehavior(collision)
        a.step(by: 1.0 / 60)
        #expect(log.events == (touches ? ["began items"] : []), "at \(gap) pt apart")
    }

    @Test("a ball dropped on the end of a vertical segment lands on its tip")
    func segmentTip() throws {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        let world = try DynamicWorld(configuration: c)
        let ball = try world.createItems(ItemDescription(shape: .ellipse(width: 20, height: 20)),
                                         at: [CGPoint(x: 0, y: -60)])
        try world.addCollisionShape(.circle(radius: 10), to: ball)
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: ball)
        try world.addBoundary(from: CGPoint(x: 0, y: 0), to: CGPoint(x: 0, y: 100))
        try world.step(by: 0.5)
        let p = world.pose(of: ball[0]).center
        #expect(abs(p.y - -10) < 1.5 && abs(p.x) < 1, "ball at \(p)")
    }

    /// Grid cells are 32-bit integers; a box ±10¹³ pt from the origin lies beyond them. Its cells are
    /// clamped to the grid's last, so the items beside it still find their pairs and no loop runs away.
    @Test("items 10¹³ pt from the origin step, and still collide with each other", arguments: [-1e13, 1e13])
    func farAwayItems(x: Double) throws {
        let world = try DynamicWorld()
        let near = try world.createItems(ItemDescription(), at: [CGPoint(x: 0, y: -50)])
        let far = try world.createItems(ItemDescription(), at: [CGPoint(x: x, y: -50), CGPoint(x: x, y: -50)])
        try world.addCollisionShape(.rectangle(width: 100, height: 100), to: near + far)
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: near)
        try world.addBoundary(from: CGPoint(x: -500, y: 0), to: CGPoint(x: 500, y: 0))
        try world.step(by: 1)
        let p = world.pose(of: near[0]).center
        #expect(abs(p.y - -50) < 1 && abs(p.x) < 1, "the near box at \(p), not on the floor at y = 0")
        let a = world.pose(of: far[0]).center, b = world.pose(of: far[1]).center
        #expect(a != b, "the two far boxes, placed on each other, were not pushed apart: \(a), \(b)")
    }

    @Test("removing the boundary under a resting item wakes it and it falls")
    func supportRemovalWakes() throws {
        let world = try DynamicWorld()
        let box = try world.createItems(ItemDescription(), at: [CGPoint(x: 0, y: -50)])
        try world.addCollisionShape(.rectangle(width: 100, height: 100), to: box)
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: box)
        let floor = try world.addBoundary(from: CGPoint(x: -500, y: 0), to: CGPoint(x: 500, y: 0))
        try world.step(by: 2)
        #expect(world.isResting(box[0]))
        try world.removeBoundary(floor)
        try world.step(by: 0.5)
        #expect(world.pose(of: box[0]).center.y > 50, "the box stayed in the air at \(world.pose(of: box[0]).center)")
        #expect(world.contactEvents.isEmpty || world.contactEvents.allSatisfy { !$0.began })
    }

    @Test("an arc with an absurd sweep flattens to at most one turn")
    func arcSweepClamped() {
        let path = BezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: -1e18, clockwise: true)
        let collision = CollisionBehavior()
        collision.addBoundary(withIdentifier: "arc", for: path)
        let a = animator()
        a.addBehavior(collision)
        a.step(by: 1.0 / 60)  // flattening must terminate
        #expect(collision.boundaryIdentifiers.count == 1)
    }

    @Test("a compound group collides with all its members and lands as one body")
    func groupCollides() {
        let a = animator()
        let left = DynamicBody(center: CGPoint(x: 400, y: 300), size: CGSize(width: 100, height: 100))
        let right = DynamicBody(center: CGPoint(x: 600, y: 250), size: CGSize(width: 100, height: 200))
        let group = DynamicItemGroup(items: [left, right])
        let collision = CollisionBehavior(items: [group])
        collision.translatesReferenceBoundsIntoBoundary = true
        let material = DynamicItemBehavior(items: [group])
        material.friction = 0.8
        a.addBehavior(GravityBehavior(items: [group]))
        a.addBehavior(collision)
        a.addBehavior(material)
        a.step(by: 4)
        // The taller member touches the floor first and the group tips until the shorter one lands too.
        #expect(left.center.y < 951 && right.center.y < 901, "\(left.center) \(right.center)")
        #expect(max(left.center.y + 50, right.center.y + 100) > 995, "the group rests on the floor")
        #expect(abs(hypot(left.center.x - right.center.x, left.center.y - right.center.y) - hypot(200, 50)) < 0.5)
    }

    @Test("removing an item from its collision behaviour while running lets it fall through")
    func removeWhileRunning() {
        let a = animator()
        let box = DynamicBody(center: CGPoint(x: 500, y: 800), size: CGSize(width: 100, height: 100))
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        a.addBehavior(GravityBehavior(items: [box]))
        a.addBehavior(collision)
        a.step(by: 1)
        #expect(abs(box.center.y - 950) < 2)
        collision.removeItem(box)
        a.step(by: 1)
        #expect(box.center.y > 1100, "still held at \(box.center.y)")
    }

    @Test("a box and a ball slide over the joints of a 40-segment floor without catching")
    func chainJoints() throws {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        let world = try DynamicWorld(configuration: c)
        let floor = BezierPath()
        floor.move(to: CGPoint(x: -2000, y: 0))
        for k in 1...40 { floor.addLine(to: CGPoint(x: -2000 + 100 * Double(k), y: 0)) }
        try world.addBoundary(floor)
        let box = try world.createItems(ItemDescription(), at: [CGPoint(x: -1800, y: -50)])
        try world.addCollisionShape(.rectangle(width: 100, height: 100), to: box)
        let ball = try world.createItems(ItemDescription(shape: .ellipse(width: 50, height: 50)),
                                         at: [CGPoint(x: -1400, y: -25)])
        try world.addCollisionShape(.circle(radius: 25), to: ball)
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: box + ball)
        try world.step(count: 30)
        try world.setVelocities([CGVector(dx: 800, dy: 0), CGVector(dx: 800, dy: 0)], for: box + ball)
        var slowest: CGFloat = .infinity, bump: CGFloat = 0
        for _ in 0..<180 {  // frictionless: both should glide at 800 pt/s across 30 joints
            try world.step(count: 1)
            for id in box + ball {
                slowest = min(slowest, world.velocity(of: id).dx)
                bump = max(bump, abs(world.velocity(of: id).dy))
            }
        }
        #expect(slowest > 799, "slowed to \(slowest) pt/s at a joint")
        #expect(bump < 1, "bounced at a joint: |vy| up to \(bump) pt/s")
        #expect(abs(world.pose(of: box[0]).angle) < 0.01)
    }

    @Test("a frictionless ball sliding across a box does not spin: a reused contact point stays on the ball")
    func slidingBallDoesNotSpin() throws {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        let world = try DynamicWorld(configuration: c)
        try world.addBoundary(from: CGPoint(x: -2000, y: 0), to: CGPoint(x: 2000, y: 0))
        // A 1 000 pt box on the floor (created first, so it is the contact's first shape) and a ball on it,
        // everything frictionless: the ball glides across the box's top, and its normal impulses run
        // through its centre, so nothing turns it.
        let box = try world.createItems(ItemDescription(shape: .rectangle(width: 1000, height: 100)), at: [CGPoint(x: 0, y: -50)])
        try world.addCollisionShape(.rectangle(width: 1000, height: 100), to: box)
        let ball = try world.createItems(ItemDescription(shape: .ellipse(width: 40, height: 40)), at: [CGPoint(x: -400, y: -120)])
        try world.addCollisionShape(.circle(radius: 20), to: ball)
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: box + ball)
        try world.step(count: 30)
        try world.setVelocities([CGVector(dx: 15, dy: 0)], for: ball)
        var fastest: CGFloat = 0
        for _ in 0..<240 {  // 0.25 pt a step: slow enough for the contact to be reused for a few steps
            try world.step(count: 1)
            fastest = max(fastest, abs(world.angularVelocity(of: ball[0])))
        }
        // Kept on the box while the ball slid on, the reused point left the normal's line off the ball's
        // centre, and each step's impulse turned it.
        #expect(fastest < 1e-3, "the ball turned at up to \(fastest) rad/s")
        #expect(abs(world.velocity(of: ball[0]).dx - 15) < 1, "the ball slid at \(world.velocity(of: ball[0]).dx) pt/s")
    }

    @Test("a frictionless box cradled on a ball in a narrow stem rocks without gaining energy")
    func cradledBoxLosesEnergy() throws {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        c.restDetection = false
        let world = try DynamicWorld(configuration: c)
        // A 30 pt stem (walls at x = 145 and 175, floor at y = 560); a 23 pt ball in its right corner and a
        // 24 pt box lying on the ball, tilted 5° and leaning toward the left wall, all frictionless: where a
        // funnel's jam ended. The box rocks on the ball at about 2 Hz. Nothing but the contacts' softness takes
        // its energy, so its mechanical energy can only fall, apart from what a soft contact holds for a moment.
        let stem = BezierPath()
        stem.move(to: CGPoint(x: 145, y: 300))
        stem.addLine(to: CGPoint(x: 145, y: 560))
        stem.addLine(to: CGPoint(x: 175, y: 560))
        stem.addLine(to: CGPoint(x: 175, y: 300))
        _ = try world.addBoundary(stem)
        let box = try world.createItems(ItemDescription(shape: .rectangle(width: 24, height: 24)),
                                        at: [CGPoint(x: 158.005, y: 525.481)], angles: [4.62465])
        try world.addCollisionShape(.rectangle(width: 24, height: 24), to: box)
        let ball = try world.createItems(ItemDescription(shape: .ellipse(width: 23, height: 23)),
                                         at: [CGPoint(x: 163.501, y: 548.515)])
        try world.addCollisionShape(.circle(radius: 11.5), to: ball)
        let items = box + ball
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: items)
        func energy() -> Double {
            items.reduce(0) { sum, id in
                let v = world.velocity(of: id), w = world.angularVelocity(of: id)
                let m = Double(world.mass(of: id)), i = Double(world.inertia(of: id))
                return sum + 0.5 * m * Double(v.dx * v.dx + v.dy * v.dy) + 0.5 * i * Double(w * w)
                    - m * 1000 * Double(world.pose(of: id).center.y)
            }
        }
        try world.step(count: 300)
        var lowest = energy(), rise = 0.0, rocking: CGFloat = 0
        let start = lowest
        for _ in 0..<1500 {  // 5 s to 30 s
            try world.step(count: 1)
            let e = energy()
            lowest = min(lowest, e)
            rise = max(rise, e - lowest)
            rocking = max(rocking, abs(world.angularVelocity(of: box[0])))
        }
        // Against the normal and points of the step's start, the box was pushed along the ball's face as it
        // turned: its energy rose by up to 7.9 above its lowest and it rocked at 2.3 rad/s for good. Its kinetic
        // energy at the peak of a swing is about 3.
        #expect(rise < 1, "the energy rose by up to \(rise) above its lowest")
        #expect(energy() < start, "the energy went from \(start) to \(energy())")
        #expect(rocking > 0.1, "the box should still rock (it turns at \(rocking) rad/s at most)")
    }

    @Test("a ball rests on an arc boundary, not on its chord")
    func arcBoundary() {
        let a = animator()
        let ball = DynamicBody(center: CGPoint(x: 560, y: 300), size: CGSize(width: 100, height: 100),
                               collisionBoundsType: .ellipse)
        let bowl = BezierPath(arcCenter: CGPoint(x: 500, y: 400), radius: 400, startAngle: 0, endAngle: .pi, clockwise: true)
        let collision = CollisionBehavior(items: [ball])
        collision.addBoundary(withIdentifier: "bowl", for: bowl)
        let material = DynamicItemBehavior(items: [ball])
        material.friction = 0.5
        material.angularResistance = 2
        a.addBehavior(GravityBehavior(items: [ball]))
        a.addBehavior(collision)
        a.addBehavior(material)
        a.step(by: 8)
        let d = hypot(ball.center.x - 500, ball.center.y - 400)
        #expect(abs(d - 350) < 3, "distance from the arc's centre \(d); the chord would give \(400 - 50)… or far less")
        #expect(ball.center.y > 700, "rests at the bottom of the bowl: \(ball.center)")
    }
}
