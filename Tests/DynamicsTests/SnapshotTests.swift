// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Snapshots (`DynamicWorld.snapshot()`, `init(snapshot:workerCount:)`): a world read back steps to the state
/// hash of the world that was never stopped, at either worker count, for every built-in scene (every shape
/// kind, attachments with motors and springs, kinematic items, fields, items at rest); bad bytes throw
/// `invalidSnapshot` naming what is wrong.
@Suite struct SnapshotTests {
    /// Scene, items, steps before the snapshot (the scene's timeline runs until then), steps after.
    static let cases: [(String, Int, Int, Int)] = [
        ("default", 300, 40, 60), ("integration", 300, 30, 30), ("pile", 300, 90, 90), ("pile-circles", 300, 60, 60),
        ("pyramid", 220, 30, 60), ("many_pyramids", 220, 20, 40), ("smash", 300, 25, 50), ("scatter", 300, 30, 30),
        ("scatter-giants", 300, 30, 30), ("joint_grid", 300, 40, 60), ("tumbler", 300, 60, 60),
        ("compounds", 300, 60, 60), ("washer", 300, 60, 60), ("junkyard", 300, 60, 60), ("spinner", 300, 60, 60),
        ("rain", 2_000, 60, 60), ("chain", 300, 60, 60), ("bridge", 300, 60, 60), ("fields", 300, 60, 60),
        ("sticky_corners", 2, 60, 60),
    ]

    @Test("a world read from a snapshot steps to the hash of the world never stopped", arguments: cases.indices)
    func resumes(k: Int) throws {
        let (name, items, before, after) = Self.cases[k]
        let scene = try #require(Scene.named(name))
        var configuration = DynamicsConfiguration()
        configuration.workerCount = 1
        // The world never stopped (and never snapshot).
        let whole = try scene.makeRun(items: items, configuration: configuration)
        for _ in 0..<before { try whole.step() }
        try whole.world.step(count: after)

        let run = try scene.makeRun(items: items, configuration: configuration)
        for _ in 0..<before { try run.step() }
        let bytes = run.world.snapshot()
        #expect(run.world.snapshot() == bytes, "\(name): a second snapshot has the same bytes")
        for workers in [1, 2] {
            let back = try DynamicWorld(snapshot: bytes, workerCount: workers)
            #expect(back.configuration.workerCount == workers)
            #expect(back.stepCount == run.world.stepCount && back.elapsedTime == run.world.elapsedTime)
            #expect(back.itemCount == run.world.itemCount && back.awakeItemCount == run.world.awakeItemCount)
            try back.step(count: after)
            let got = String(format: "0x%016llx", back.stateHash())
            #expect(back.stateHash() == whole.world.stateHash(), "\(name), \(workers) workers after reading: \(got)")
        }
        try run.world.step(count: after)
        #expect(run.world.stateHash() == whole.world.stateHash(), "\(name): taking a snapshot changed the world")
    }

    @Test("a snapshot keeps the configuration, the clock and the items' ids")
    func keepsConfigurationAndIDs() throws {
        var configuration = DynamicsConfiguration()
        configuration.stepsPerSecond = 120
        configuration.substeps = 6
        configuration.seed = 0xfeed_beef_1234_5678
        configuration.contactFrequency = 45
        configuration.solverIterations = 2
        configuration.integrator = .scalar
        configuration.simd = .scalar
        configuration.workerCount = 1
        let world = try DynamicWorld(configuration: configuration)
        let ids = try world.createItems(ItemDescription(), at: (0..<5).map { CGPoint(x: 150 * Double($0), y: 0) })
        try world.removeItems([ids[1]])
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: [ids[0], ids[2]])
        try world.step(by: 0.1 + 0.5 / 120) // 12 steps and half a step carried
        let back = try DynamicWorld(snapshot: world.snapshot(), workerCount: 2)
        var expected = configuration
        expected.workerCount = 2
        #expect(back.configuration == expected)
        #expect(back.stepCount == 12 && back.elapsedTime == world.elapsedTime)
        // The same slots and generations: ids made from an old id's parts name the same items; the old ids,
        // which carry the written world, are not this world's.
        let parts = ids.map { ItemID(index: $0.index, generation: $0.generation) }
        #expect(parts.map(back.contains) == [true, false, true, true, true])
        #expect(!back.contains(ids[0]))
        #expect(back.itemIDs().map { ItemID(index: $0.index, generation: $0.generation) } ==
                world.itemIDs().map { ItemID(index: $0.index, generation: $0.generation) })
        // The half step carried: another half step takes one step in both.
        try world.step(by: 0.5 / 120)
        try back.step(by: 0.5 / 120)
        #expect(back.stepCount == 13 && world.stepCount == 13)
        #expect(back.stateHash() == world.stateHash())
        // A new item takes the same slot in both (the id pools' free lists were kept).
        let made = try world.createItems(ItemDescription(), at: [CGPoint(x: 0, y: -500)])
        let madeBack = try back.createItems(ItemDescription(), at: [CGPoint(x: 0, y: -500)])
        #expect(made[0].index == madeBack[0].index && made[0].generation == madeBack[0].generation)
    }

    @Test("bytes that are no snapshot, truncated, damaged or of another version throw, naming what is wrong")
    func badBytes() throws {
        let world = try DynamicWorld()
        try world.createItems(ItemDescription(), at: [CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 200)])
        try world.step(count: 3)
        let bytes = world.snapshot()
        func field(_ data: Data) -> String? {
            do {
                _ = try DynamicWorld(snapshot: data)
                return nil
            } catch {
                guard case let .invalidSnapshot(field, _) = error else { return "other: \(error)" }
                return field
            }
        }
        #expect(field(Data("{\"items\": []}".utf8)) == "magic")
        #expect(field(Data()) == "magic")
        #expect(field(bytes.prefix(bytes.count / 2)) == "length")
        #expect(field(bytes.prefix(30)) == "length")
        #expect(field(bytes + Data([0])) == "length")
        var damaged = bytes
        damaged[bytes.count / 2] ^= 0x10
        #expect(field(damaged) == "checksum")
        var version = bytes
        version[8] = 9
        #expect(field(version) == "version" || field(version) == "checksum") // the version is read first
        #expect(field(version) == "version")
        let description = DynamicsError.invalidSnapshot(field: "checksum", value: 0).description
        #expect(description == "invalid snapshot: damaged (its checksum does not match)")
        #expect(throws: DynamicsError.invalidValue(field: "workerCount", value: 0, index: nil)) {
            try DynamicWorld(snapshot: bytes, workerCount: 0)
        }
    }
}
