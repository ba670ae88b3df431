// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

@Suite struct WorldTests {
    func grid(_ n: Int) -> [CGPoint] { (0..<n).map { CGPoint(x: Double($0 % 100) * 120, y: Double($0 / 100) * 120) } }

    @Test("mass and inertia follow Units and semantics")
    func massProperties() throws {
        let world = try DynamicWorld()
        let box = try world.createItems(ItemDescription(), at: [.zero])[0]
        let tall = try world.createItems(ItemDescription(shape: .rectangle(width: 100, height: 200)), at: [.zero])[0]
        let disc = try world.createItems(ItemDescription(shape: .ellipse(width: 100, height: 100), density: 2), at: [.zero])[0]
        #expect(relativeError(world.mass(of: box), 1) < 1e-6)
        #expect(relativeError(world.inertia(of: box), 20_000.0 / 12) < 1e-6)
        #expect(relativeError(world.mass(of: tall), 2) < 1e-6)
        #expect(relativeError(world.mass(of: disc), 2 * .pi / 4) < 1e-6)
        #expect(relativeError(world.inertia(of: disc), 2 * .pi / 4 * (2500.0 + 2500) / 4) < 1e-6)
    }

    @Test("stale ids are rejected and removal keeps every other id valid")
    func staleIDs() throws {
        let world = try DynamicWorld()
        let ids = try world.createItems(ItemDescription(), at: grid(5))
        try world.removeItems([ids[1]])
        #expect(!world.contains(ids[1]))
        #expect(throws: DynamicsError.staleID(ids[1])) { try world.removeItems([ids[1]]) }
        let fresh = try world.createItems(ItemDescription(), at: [CGPoint(x: 7, y: 7)])[0]
        #expect(fresh.index == ids[1].index && fresh.generation != ids[1].generation)
        #expect(!world.contains(ids[1]))
        #expect(throws: DynamicsError.staleID(ids[1])) { try world.setGravity(CGVector(dx: 0, dy: 1), for: [ids[1]]) }
        for (k, id) in ids.enumerated() where k != 1 {
            #expect(world.pose(of: id).center == grid(5)[k])
        }
        #expect(world.pose(of: fresh).center == CGPoint(x: 7, y: 7))
        #expect(throws: DynamicsError.duplicateID(ids[0])) { try world.removeItems([ids[0], ids[0]]) }
        #expect(world.itemCount == 5)
    }

    @Test("bad data throws naming the field and value, and changes nothing")
    func badData() throws {
        let world = try DynamicWorld()
        _ = try world.createItems(ItemDescription(), at: grid(3))
        #expect(throws: DynamicsError.self) {
            try world.createItems(ItemDescription(), at: [.zero, CGPoint(x: CGFloat.nan, y: 0)])
        }
        #expect(throws: DynamicsError.invalidValue(field: "position.x", value: .infinity, index: 1)) {
            try world.createItems(ItemDescription(), at: [.zero, CGPoint(x: CGFloat.infinity, y: 0)])
        }
        var bad = ItemDescription()
        bad.density = -2
        #expect(throws: DynamicsError.invalidValue(field: "density", value: -2, index: nil)) {
            try world.createItems(bad, at: [.zero])
        }
        bad = ItemDescription(shape: .rectangle(width: 0, height: 10))
        #expect(throws: DynamicsError.invalidValue(field: "width", value: 0, index: nil)) {
            try world.createItems(bad, at: [.zero])
        }
        #expect(world.itemCount == 3)
        let ids = world.itemIDs()
        let before = world.stateHash()
        #expect(throws: DynamicsError.self) {
            try world.setPositions([.zero, .zero, CGPoint(x: 0, y: CGFloat.nan)], for: ids)
        }
        #expect(throws: DynamicsError.self) { try world.setResistance(-1, angular: 0, for: ids) }
        #expect(world.stateHash() == before)
        #expect(throws: DynamicsError.self) {
            var c = DynamicsConfiguration()
            c.workerCount = 0
            _ = try DynamicWorld(configuration: c)
        }
    }

    @Test("a configuration out of range throws naming the field and value, and reconfiguring with it changes nothing")
    func badConfiguration() throws {
        let cases: [(WritableKeyPath<DynamicsConfiguration, Double>, Double, String)] = [
            (\.contactFrequency, 0, "contactFrequency"), (\.contactFrequency, -30, "contactFrequency"),
            (\.contactFrequency, .infinity, "contactFrequency"), (\.stepsPerSecond, 0, "stepsPerSecond"),
        ]
        let world = try DynamicWorld()
        for (path, value, field) in cases {
            var c = DynamicsConfiguration()
            c[keyPath: path] = value
            #expect(throws: DynamicsError.invalidValue(field: field, value: value, index: nil)) {
                try DynamicWorld(configuration: c)
            }
            #expect(throws: DynamicsError.invalidValue(field: field, value: value, index: nil)) {
                try world.reconfigure(c)
            }
        }
        for iterations in [0, 9] {
            var c = DynamicsConfiguration()
            c.solverIterations = iterations
            #expect(throws: DynamicsError.invalidValue(field: "solverIterations", value: Double(iterations), index: nil)) {
                try world.reconfigure(c)
            }
        }
        #expect(world.configuration == DynamicsConfiguration())
        var nan = DynamicsConfiguration()
        nan.contactFrequency = .nan
        #expect(throws: DynamicsError.self) { try DynamicWorld(configuration: nan) }
    }

    @Test("items at rest leave the awake range; a velocity wakes them")
    func rest() throws {
        let world = try DynamicWorld()
        let ids = try world.createItems(ItemDescription(), at: grid(10))
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: [ids[0]])
        try world.step(by: 0.6)
        #expect(world.awakeItemCount == 1)
        #expect(world.isResting(ids[5]) && !world.isResting(ids[0]))
        let frozen = world.pose(of: ids[5]).center
        try world.addVelocity(CGVector(dx: 30, dy: 0), for: [ids[5]])
        #expect(world.awakeItemCount == 2 && !world.isResting(ids[5]))
        try world.step(by: 0.1)
        #expect(world.pose(of: ids[5]).center.x > frozen.x + 2)
    }

    @Test("only a write that changes a value wakes a resting item")
    func wakeOnChange() throws {
        let world = try DynamicWorld()
        let ids = try world.createItems(ItemDescription(), at: grid(4))
        try world.step(by: 0.6)
        #expect(world.awakeItemCount == 0)
        try world.setGravity(CGVector(dx: 0, dy: 0), for: ids)
        try world.setResistance(0, angular: 0, for: ids)
        #expect(world.awakeItemCount == 0)
        try world.setGravity(CGVector(dx: 0, dy: 5), for: [ids[2]])
        #expect(world.awakeItemCount == 1 && !world.isResting(ids[2]))
    }

    @Test("turning rest detection off wakes every item and keeps them awake")
    func restDetectionOff() throws {
        let world = try DynamicWorld()
        _ = try world.createItems(ItemDescription(), at: grid(6))
        try world.step(by: 0.6)
        #expect(world.awakeItemCount == 0)
        var c = world.configuration
        c.restDetection = false
        try world.reconfigure(c)
        try world.step(by: 1.0)
        #expect(world.awakeItemCount == 6)
    }

    @Test("columns read in dense order, matching itemIDs()")
    func columns() throws {
        let world = try DynamicWorld()
        let ids = try world.createItems(ItemDescription(), at: grid(300))
        try world.removeItems(Array(ids[10..<20]))
        let dense = world.itemIDs()
        let ys = world.withColumn(.positionY) { span in (0..<span.count).map { CGFloat(span[$0]) } }
        #expect(ys.count == 290)
        for (k, id) in dense.enumerated() { #expect(world.pose(of: id).center.y == ys[k]) }
    }

    @Test("kinetic energy and momentum: ½ m v² and m v")
    func energy() throws {
        let world = try DynamicWorld()
        let ids = try world.createItems(ItemDescription(), at: grid(1000))
        try world.setVelocities(Array(repeating: CGVector(dx: 3, dy: 4), count: 1000), for: ids)
        #expect(relativeError(world.kineticEnergy, 1000 * 0.5 * 25) < 1e-6)
        #expect(relativeError(world.momentum.dx, 3000) < 1e-6)
        #expect(world.maxAwakeSpeedComponent == 4)
    }

    @Test("the same scene gives the same state hash for 1, 2, 3, 4 and 8 workers", arguments: Integrator.allCases)
    func determinism(integrator: Integrator) throws {
        func run(workers: Int) throws -> UInt64 {
            var c = DynamicsConfiguration()
            c.workerCount = workers
            c.integrator = integrator
            let world = try DynamicWorld(configuration: c)
            var rng = SeededGenerator(seed: 11)
            let n = 20_000
            let positions = (0..<n).map { _ in CGPoint(x: rng.unit() * 5000, y: rng.unit() * 5000) }
            let ids = try world.createItems(ItemDescription(), at: positions)
            try world.setGravity(CGVector(dx: 0, dy: 1000), for: Array(ids[0..<15_000]))
            try world.setResistance(0.5, angular: 1, for: Array(ids[5000..<9000]))
            try world.setSnap(to: CGPoint(x: 100, y: 100), dampingRatio: 0.3, for: Array(ids[15_000..<17_000]))
            try world.setVelocities((0..<n).map { _ in CGVector(dx: rng.unit() * 10 - 5, dy: rng.unit() * 10 - 5) },
                                    angular: (0..<n).map { _ in rng.unit() - 0.5 }, for: ids)
            try world.applyImpulse(CGVector(dx: 1, dy: 0), at: Offset(horizontal: 10, vertical: 20),
                                   for: Array(ids[100..<200]))
            try world.step(count: 40)
            return world.stateHash()
        }
        let reference = try run(workers: 1)
        for workers in [2, 3, 4, 8] { #expect(try run(workers: workers) == reference, "workers \(workers)") }
    }
}
