// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

@Suite struct FieldBehaviorTests {
    @Test("sticky corners: a flicked item comes to rest in the half it was thrown into",
          arguments: [(30_000.0, 600.0), (10_000.0, 200.0), (-30_000.0, 200.0)])
    func stickyCorners(flick: Double, restY: Double) {
        // UIKit's example, halved: spring fields over the top and bottom halves of a 400 × 800 pt view.
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 800))
        let start = flick < 0 ? 600.0 : 200.0
        let card = square(at: CGPoint(x: 200, y: start))
        let collision = CollisionBehavior(items: [card])
        collision.translatesReferenceBoundsIntoBoundary = true
        let behaviour = DynamicItemBehavior(items: [card])
        behaviour.density = 0.01
        behaviour.resistance = 10
        behaviour.allowsRotation = false
        for centreY in [200.0, 600.0] {
            let spring = FieldBehavior.springField()
            spring.position = CGPoint(x: 200, y: centreY)
            spring.region = Region(size: CGSize(width: 400, height: 400))
            spring.addItem(card)
            animator.addBehavior(spring)
        }
        animator.addBehavior(collision)
        animator.addBehavior(behaviour)
        behaviour.addLinearVelocity(CGPoint(x: 0, y: flick), for: card)
        #expect(animator.runUntilPaused(timeout: 10), "the card comes to rest")
        #expect(abs(card.center.y - restY) < 5 && abs(card.center.x - 200) < 5, "flick \(flick): \(card.center)")
    }

    @Test("sticky_corners scene: hard flicks stick in the bottom half, soft ones return to the top")
    func stickyCornersScene() throws {
        let world = try Scene.stickyCorners.makeWorld(items: 4)
        try world.step(by: 5)
        let ids = world.itemIDs().sorted { $0.index < $1.index }
        for (k, id) in ids.enumerated() {
            let y = world.pose(of: id).center.y
            #expect(abs(y - (k % 2 == 0 ? 600 : 200)) < 5, "item \(k) at y = \(y)")
        }
        #expect(world.awakeItemCount == 0)
    }

    @Test("custom field: the block runs on the stepping thread, once per item in the region per step")
    func customField() {
        let inside = square(at: .zero), outside = square(at: CGPoint(x: 1000, y: 0))
        let animator = makeAnimator(workers: 2)
        let caller = Thread.current
        var calls = 0, offThread = 0
        let field = FieldBehavior.field { field, position, velocity, mass, charge, dt in
            calls += 1
            if Thread.current != caller { offThread += 1 }
            #expect(mass == 1 && charge == 0 && abs(dt - 1.0 / 60) < 1e-12)
            return CGVector(dx: 1, dy: 0)  // 1 N on mass 1: 100 pt/s²
        }
        field.region = Region(radius: 500)
        field.addItem(inside)
        field.addItem(outside)
        animator.addBehavior(field)
        animator.addBehavior(DynamicItemBehavior(items: [inside, outside]))  // keeps them after the field goes
        animator.step(by: 1)
        #expect(calls == 60 && offThread == 0)
        #expect(relativeError(inside.center.x, 50) < 0.02, "x = \(inside.center.x)")
        #expect(outside.center.x == 1000)
        animator.removeBehavior(field)
        let x = inside.center.x
        animator.step(by: 0.5)
        let v = (inside.center.x - x) / 0.5  // coasting at 100 pt/s: no force after removal
        #expect(relativeError(v, 100) < 0.02, "v = \(v)")
    }

    @Test("items added to and removed from a field while running feel it from the next step")
    func membershipWhileRunning() {
        let a = square(), b = square(at: CGPoint(x: 500, y: 0))
        let animator = makeAnimator()
        let field = FieldBehavior.linearGravityField(direction: CGVector(dx: 1, dy: 0))
        field.addItem(a)
        animator.addBehavior(field)
        animator.addBehavior(DynamicItemBehavior(items: [a, b]))
        animator.step(by: 1.0 / 60)
        #expect(a.center.x > 0 && b.center.x == 500)
        field.addItem(b)
        field.removeItem(a)
        let ax = a.center.x
        animator.step(by: 1.0 / 60)
        #expect(b.center.x > 500 && relativeError(a.center.x - ax, 1000.0 / 60 / 60) < 0.05)
    }

    @Test("items in an animated noise field do not rest; in a frozen one they do")
    func animatedNoiseKeepsItemsAwake() throws {
        for speed in [1.0, 0.0] {
            let world = try DynamicWorld()
            let ids = try world.createItems(ItemDescription(), at: [.zero])
            var noise = FieldDescription(kind: .noise)
            noise.strength = 0.001  // ≤ 1 pt/s²: against drag 10 the item moves below the rest speed
            noise.animationSpeed = speed
            try world.addField(noise, for: ids)
            var drag = FieldDescription(kind: .drag)
            drag.strength = 10
            try world.addField(drag, for: ids)
            try world.step(by: 3)
            #expect(world.awakeItemCount == (speed > 0 ? 1 : 0), "animationSpeed \(speed)")
        }
    }

    @Test("noise fields: the same seed gives the same run, another seed another")
    func noiseSeeds() throws {
        func run(seed: UInt64) throws -> UInt64 {
            var configuration = DynamicsConfiguration()
            configuration.seed = seed
            let world = try DynamicWorld(configuration: configuration)
            let ids = try world.createItems(ItemDescription(), at: (0..<200).map { CGPoint(x: Double($0) * 37, y: 0) })
            try world.addField(FieldDescription(kind: .noise), for: ids)
            var turbulence = FieldDescription(kind: .turbulence)
            turbulence.smoothness = 0.2
            try world.addField(turbulence, for: ids)
            try world.step(by: 1)
            return world.stateHash()
        }
        #expect(try run(seed: 5) == run(seed: 5))
        #expect(try run(seed: 5) != run(seed: 6))
    }

    @Test("fields scene: the same bits for 1, 2 and 3 workers, the scalar and wide kernels, fused and BLAS paths")
    func deterministic() throws {
        var hashes: Set<UInt64> = []
        for (workers, simd, integrator) in [(1, SIMDLevel.automatic, Integrator.fused), (2, .automatic, .fused),
                                            (3, .automatic, .fused), (2, .scalar, .fused), (1, .automatic, .blas),
                                            (2, .automatic, .scalar)]
        {
            var configuration = DynamicsConfiguration()
            configuration.workerCount = workers
            configuration.simd = simd
            configuration.integrator = integrator
            let world = try Scene.fields.makeWorld(items: 9000, configuration: configuration)
            try world.step(count: 30)
            hashes.insert(world.stateHash())
        }
        #expect(hashes.count == 1)
    }

    @Test("batch field API: bad input throws naming the field and changes nothing")
    func batchErrors() throws {
        let world = try DynamicWorld()
        let ids = try world.createItems(ItemDescription(), at: [.zero, CGPoint(x: 200, y: 0)])
        var bad = FieldDescription(kind: .spring)
        bad.strength = .infinity
        #expect(throws: DynamicsError.invalidValue(field: "strength", value: .infinity, index: nil)) {
            try world.addField(bad, for: ids)
        }
        bad = FieldDescription(kind: .noise)
        bad.smoothness = 2
        #expect(throws: DynamicsError.invalidValue(field: "smoothness", value: 2, index: nil)) {
            try world.addField(bad, for: ids)
        }
        try world.removeItems([ids[1]])
        #expect(throws: DynamicsError.staleID(ids[1])) { try world.addField(FieldDescription(kind: .drag), for: ids) }
        #expect(world.fieldCount == 0)
        let field = try world.addField(FieldDescription(kind: .drag), for: [ids[0]])
        #expect(world.isItem(ids[0], inField: field))
        try world.removeField(field)
        #expect(throws: DynamicsError.staleField(field)) { try world.updateField(field, FieldDescription(kind: .drag)) }
        for _ in 0..<64 { try world.addField(FieldDescription(kind: .drag)) }
        #expect(throws: DynamicsError.invalidValue(field: "fieldCount", value: 65, index: nil)) {
            try world.addField(FieldDescription(kind: .drag))
        }
    }

    @Test("a 2 000-deep nested region compiles into a shallow program and gates exactly")
    func deepRegion() throws {
        // 2 000 levels: each adds a 5 pt ring around the last, alternately by union and by difference
        // (the new ring minus everything inside), so the answer alternates ring by ring
        var region = Region(radius: 2.5)
        for k in 1..<2000 {
            let disc = Region(radius: 2.5 + 5 * Double(k))
            region = k % 2 == 0 ? region.byUnion(with: disc.byDifference(from: Region(radius: 5 * Double(k) - 2.5)))
                : disc.byDifference(from: region)
        }
        var d = FieldDescription(kind: .linearGravity)
        d.region = region
        let radii = stride(from: 1.0, to: 9000, by: 61.3).map { $0 }
        let world = try DynamicWorld()
        let ids = try world.createItems(ItemDescription(), at: radii.map { CGPoint(x: $0, y: 0) })
        try world.addField(d, for: ids)
        try world.step(count: 1)
        for (id, r) in zip(ids, radii) {
            #expect((world.velocity(of: id).dy > 0) == region.contains(CGPoint(x: r, y: 0)), "r = \(r)")
        }
    }
}
