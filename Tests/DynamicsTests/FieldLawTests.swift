// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// A world of 100 × 100 pt items (mass 1 at density 1) at `points` under one field.
private func world(_ field: FieldDescription, at points: [CGPoint], item: ItemDescription = ItemDescription(),
                   velocities: [CGVector]? = nil, workers: Int = 1) throws -> (DynamicWorld, [ItemID], FieldID) {
    var configuration = DynamicsConfiguration()
    configuration.workerCount = workers
    let world = try DynamicWorld(configuration: configuration)
    let ids = try world.createItems(item, at: points)
    if let velocities { try world.setVelocities(velocities, for: ids) }
    let field = try world.addField(field, for: ids)
    return (world, ids, field)
}

/// Acceleration over one step from rest (pt/s²): Δv / dt.
private func acceleration(_ world: DynamicWorld, _ id: ItemID) throws -> CGVector {
    let before = world.velocity(of: id)
    try world.step(count: 1)
    let after = world.velocity(of: id), dt = world.configuration.stepDuration
    return CGVector(dx: (after.dx - before.dx) / dt, dy: (after.dy - before.dy) / dt)
}

private func length(_ v: CGVector) -> Double { hypot(v.dx, v.dy) }

@Suite struct FieldLawTests {
    @Test("linear gravity field equals GravityBehavior of the same magnitude (1 s, direction (0.6, 0.8))")
    func linearGravityMatchesGravity() {
        let a = square(), b = square()
        let withField = makeAnimator(), withGravity = makeAnimator()
        let field = FieldBehavior.linearGravityField(direction: CGVector(dx: 0.6, dy: 0.8))
        field.addItem(a)
        withField.addBehavior(field)
        let gravity = GravityBehavior(items: [b])
        gravity.gravityDirection = CGVector(dx: 0.6, dy: 0.8)
        withGravity.addBehavior(gravity)
        withField.step(by: 1)
        withGravity.step(by: 1)
        #expect(relativeError(a.center.x, b.center.x) < 1e-5 && relativeError(a.center.y, b.center.y) < 1e-5,
                "field \(a.center), gravity \(b.center)")
        #expect(relativeError(b.center.y, 400) < 0.01)  // 0.5 · 800 pt/s² · 1 s²
    }

    @Test("radial gravity, falloff 2: a = 1000/r² toward the position, clamped at minimumRadius")
    func radialInverseSquare() throws {
        var d = FieldDescription(kind: .radialGravity)
        d.position = CGPoint(x: 1000, y: 1000)
        d.falloff = 2
        d.strength = 4e4
        let radii: [CGFloat] = [100, 200, 400, 800]
        let (w, ids, field) = try world(d, at: radii.map { CGPoint(x: 1000 + $0, y: 1000) })
        for (id, r) in zip(ids, radii) {
            let a = try acceleration(w, id)
            let expected = 1000 * 4e4 / (r * r)
            #expect(a.dx < 0 && relativeError(-a.dx, expected) < 0.01, "r = \(r): a = \(a), expected \(-expected)")
            #expect(abs(a.dy) < 1e-3 * expected)
            try w.setVelocities([.zero], for: [id])
        }
        d.minimumRadius = 300
        try w.updateField(field, d)
        try w.setVelocities(Array(repeating: .zero, count: ids.count), for: ids)
        try w.step(count: 1)
        let clamped = 1000 * 4e4 / (300.0 * 300.0) * w.configuration.stepDuration
        for (id, r) in zip(ids, radii) where r < 300 {
            #expect(relativeError(-w.velocity(of: id).dx, clamped) < 0.01, "r = \(r) inside minimumRadius")
        }
    }

    @Test("general falloff 1.5 follows r^-1.5")
    func generalFalloff() throws {
        var d = FieldDescription(kind: .radialGravity)
        d.falloff = 1.5
        d.strength = 1000
        let radii: [CGFloat] = [50, 150, 450]
        let (w, ids, _) = try world(d, at: radii.map { CGPoint(x: 0, y: $0) })
        try w.step(count: 1)
        for (id, r) in zip(ids, radii) {
            let expected = 1000 * 1000 * pow(r, -1.5) * w.configuration.stepDuration
            #expect(relativeError(-w.velocity(of: id).dy, expected) < 0.01, "r = \(r)")
        }
    }

    @Test("spring field: period 0.628 s for a 100 × 100, density 1 item; 1.257 s at density 4")
    func springPeriod() throws {
        for (density, period) in [(1.0, 2 * Double.pi / 10), (4.0, 2 * Double.pi / 5)] {
            var item = ItemDescription()
            item.density = density
            let (w, ids, _) = try world(FieldDescription(kind: .spring), at: [CGPoint(x: 50, y: 0)], item: item)
            // time of the downward zero crossings of x, interpolated
            var crossings: [Double] = []
            var last = 50.0
            for step in 1...360 {
                try w.step(count: 1)
                let x = w.pose(of: ids[0]).center.x
                if last > 0 && x <= 0 {
                    crossings.append((Double(step - 1) + last / (last - x)) * w.configuration.stepDuration)
                }
                last = x
            }
            #expect(crossings.count >= 3)
            let measured = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
            #expect(relativeError(measured, period) < 0.01, "density \(density): period \(measured) s")
        }
    }

    @Test("drag field: velocity decays at strength/m per second")
    func dragDecay() throws {
        for density in [1.0, 2.0] {
            var item = ItemDescription()
            item.density = density
            var d = FieldDescription(kind: .drag)
            d.strength = 1
            let (w, ids, _) = try world(d, at: [.zero], item: item, velocities: [CGVector(dx: 100, dy: 0)])
            try w.step(by: 1)
            let expected = 100 * exp(-1 / density)
            #expect(relativeError(w.velocity(of: ids[0]).dx, expected) < 0.01, "density \(density)")
        }
    }

    @Test("velocity field sets v = strength · direction inside its region only, overriding gravity")
    func velocityField() throws {
        var d = FieldDescription(kind: .velocity)
        d.direction = CGVector(dx: 1, dy: 0)
        d.strength = 50
        d.region = Region(radius: 100)
        let (w, ids, _) = try world(d, at: [.zero, CGPoint(x: 0, y: 500)])
        try w.setGravity(CGVector(dx: 0, dy: 1000), for: ids)
        try w.step(count: 1)
        #expect(w.velocity(of: ids[0]) == CGVector(dx: 50, dy: 0))
        #expect(w.velocity(of: ids[1]).dx == 0 && relativeError(w.velocity(of: ids[1]).dy, 1000.0 / 60) < 1e-4)
    }

    @Test("vortex turns visually counter-clockwise for positive strength, clockwise for negative")
    func vortexSense() throws {
        // y grows downward: at 3 o'clock counter-clockwise is up (−y), at 12 o'clock it is left (−x).
        for sign in [1.0, -1.0] {
            var d = FieldDescription(kind: .vortex)
            d.strength = sign
            let (w, ids, _) = try world(d, at: [CGPoint(x: 100, y: 0), CGPoint(x: 0, y: -100)])
            let east = try acceleration(w, ids[0])
            let north = w.velocity(of: ids[1])
            #expect(relativeError(-sign * east.dy, 1000) < 0.01 && abs(east.dx) < 20, "east: \(east)")
            #expect(-sign * north.dx > 0 && abs(north.dy) < 1e-3 * abs(north.dx), "north: \(north)")
        }
    }

    @Test("electric field: positive charge pushed away by positive strength (100 pt/s²), pulled by negative")
    func electricSign() throws {
        for strength in [1.0, -1.0] {
            var item = ItemDescription()
            item.charge = 1
            var d = FieldDescription(kind: .electric)
            d.strength = strength
            let (w, ids, _) = try world(d, at: [CGPoint(x: 300, y: 0)], item: item)
            let a = try acceleration(w, ids[0])
            #expect(relativeError(a.dx, 100 * strength) < 0.01, "strength \(strength): a = \(a)")
        }
        // no charge, no force
        let (w, ids, _) = try world(FieldDescription(kind: .electric), at: [CGPoint(x: 300, y: 0)])
        #expect(try acceleration(w, ids[0]) == .zero)
    }

    @Test("magnetic field: a moving charge circles at ω = q · strength / m")
    func cyclotron() throws {
        for (charge, strength) in [(1.0, 1.0), (2.0, 1.5)] {
            var item = ItemDescription()
            item.charge = charge
            var d = FieldDescription(kind: .magnetic)
            d.strength = strength
            let (w, ids, _) = try world(d, at: [.zero], item: item, velocities: [CGVector(dx: 100, dy: 0)])
            let omega = charge * strength  // m = 1
            // a quarter turn: the velocity has turned by 90° (F = q s (v_y, −v_x)/100 turns +x toward −y)
            try w.step(count: Int((Double.pi / 2 / omega * 60).rounded()))
            let v = w.velocity(of: ids[0])
            let turned = atan2(-v.dy, v.dx)
            #expect(abs(turned - .pi / 2) < 0.03, "q \(charge), s \(strength): turned \(turned) rad")
            // a full turn: back at the start, on a circle of radius v/ω
            try w.step(count: Int((3 * Double.pi / 2 / omega * 60).rounded()))
            let p = w.pose(of: ids[0]).center
            #expect(hypot(p.x, p.y) < 0.03 * 100 / omega * 2 * .pi, "after one period at \(p)")
            #expect(relativeError(length(w.velocity(of: ids[0])), 100) < 0.02)
        }
    }

    @Test("regions built with union, difference, intersection and inverse gate the force exactly")
    func regionGating() throws {
        let ring = Region(radius: 210).byDifference(from: Region(radius: 90))
        let bar = Region(size: CGSize(width: 520, height: 110))
        let regions: [Region] = [
            ring, ring.byUnion(with: bar), ring.byIntersection(with: bar), bar.byDifference(from: ring),
            ring.inverse(), ring.byUnion(with: bar).inverse().byIntersection(with: Region(radius: 330)),
        ]
        var points: [CGPoint] = []
        for i in -12...12 { for j in -12...12 { points.append(CGPoint(x: 25.0 * Double(i) + 3, y: 25.0 * Double(j) + 7)) } }
        let position = CGPoint(x: 40, y: -30)
        for region in regions {
            var d = FieldDescription(kind: .linearGravity)
            d.position = position
            d.region = region
            let (w, ids, _) = try world(d, at: points)
            try w.step(count: 1)
            var mismatches = 0
            for (id, p) in zip(ids, points) {
                let inside = region.contains(CGPoint(x: p.x - position.x, y: p.y - position.y))
                let pushed = w.velocity(of: id).dy > 0
                if inside != pushed { mismatches += 1 }
            }
            #expect(mismatches == 0, "\(region): \(mismatches) of \(points.count) points disagree")
        }
    }

    @Test("falloff and region changes made while running take effect on the next step")
    func changesWhileRunning() {
        let body = square(at: CGPoint(x: 200, y: 0))
        let animator = makeAnimator()
        let field = FieldBehavior.radialGravityField(position: .zero)
        field.addItem(body)
        animator.addBehavior(field)
        let behaviour = DynamicItemBehavior(items: [body])
        animator.addBehavior(behaviour)
        func stepVelocity() -> Double {
            let before = behaviour.linearVelocity(for: body).x
            animator.step(by: 1.0 / 60)
            return (behaviour.linearVelocity(for: body).x - before) * 60
        }
        #expect(relativeError(-stepVelocity(), 1000) < 1e-3)
        field.falloff = 1
        let r = 200 - body.center.x  // distance now
        #expect(relativeError(-stepVelocity(), 1000 / (200 - r)) < 0.01)
        field.region = Region(radius: 50)
        #expect(stepVelocity() == 0)
    }
}
