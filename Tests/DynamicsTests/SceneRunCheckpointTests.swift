// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Scene runs continued from checkpoints (`SceneRun.checkpoint()`, `SceneRun(_:checkpoint:workerCount:)`): the
/// timeline goes on as in the run never stopped (items made and removed, events due later), and so do the state
/// hash, the items' names and the region counts.
@Suite struct SceneRunCheckpointTests {
    /// Scene, items, steps before the checkpoint, steps after: the built-ins with a timeline (junkyard's driven
    /// pusher, rain's ragdolls made and made again), and others.
    static let builtIns: [(String, Int, Int, Int)] = [
        ("junkyard", 300, 50, 70), ("rain", 2_000, 45, 80), ("tumbler", 300, 30, 40), ("pile", 300, 40, 40),
        ("bridge", 300, 30, 30), ("fields", 300, 30, 30),
    ]

    /// Continues `run` from a checkpoint after `before` steps at each worker count, against the run never stopped.
    func expectResumes(_ document: SceneDocument, before: Int, after: Int, label: String) throws {
        var configuration = document.configuration.dynamics
        configuration.workerCount = 1
        let whole = try SceneRun(document, configuration: configuration)
        for _ in 0..<(before + after) { try whole.step() }
        let run = try SceneRun(document, configuration: configuration)
        for _ in 0..<before { try run.step() }
        let bytes = run.checkpoint()
        for workers in [1, 2] {
            let back = try SceneRun(document, checkpoint: bytes, workerCount: workers)
            #expect(back.steps == before && back.itemNames == run.itemNames && back.isRemoved == run.isRemoved, "\(label)")
            #expect(back.itemIDs.map { back.world.contains($0) } == run.itemIDs.map { run.world.contains($0) }, "\(label)")
            for _ in 0..<after { try back.step() }
            #expect(back.world.stateHash() == whole.world.stateHash(), "\(label), \(workers) workers")
            #expect(back.itemNames == whole.itemNames && back.isRemoved == whole.isRemoved, "\(label): the timeline's items")
            for region in document.regions {
                #expect(back.regionCount(region.id) == whole.regionCount(region.id), "\(label): \(region.id)")
                #expect(back.regionThroughput(region.id) == whole.regionThroughput(region.id), "\(label): \(region.id)")
            }
            #expect(back.regionEvents == whole.regionEvents, "\(label)")
        }
    }

    @Test("a built-in run continued from a checkpoint reaches the hash of the run never stopped", arguments: builtIns.indices)
    func builtIn(k: Int) throws {
        let (name, items, before, after) = Self.builtIns[k]
        let scene = try #require(Scene.named(name))
        try expectResumes(scene.document(items: items), before: before, after: after, label: name)
    }

    @Test("a scene file's regions and repeating timeline go on from a checkpoint taken between their events")
    func regionsAndTimeline() throws {
        let document = try SceneDocument.parse(Data(SceneRegionTests.scene.utf8))
        for before in [0, 59, 60, 70] { // before the band, at the step the balls enter it, inside it
            try expectResumes(document, before: before, after: 30, label: "regions from step \(before)")
        }
        let carts = try #require(SceneDocument.exampleFiles.first { $0.lastPathComponent == "cart-drops.json" })
        let cartDocument = try SceneDocument.load(contentsOf: carts)
        try expectResumes(cartDocument, before: 50, after: 60, label: "cart-drops")
    }

    /// The region scene with a push at 1 s (60 steps) that variants change: `vx` pt/s to the right.
    static func pushed(_ vx: Double, substeps: Int = 4) throws -> SceneDocument {
        var document = try SceneDocument.parse(Data(SceneRegionTests.scene.utf8))
        document.timeline = [SceneEvent(time: 1, .velocity(targets: SceneTargets(tags: ["ball"]), linear: CGVector(dx: vx, dy: 0),
                                                                    angular: 0))]
        document.configuration.substeps = substeps
        return document
    }

    @Test("a variant started from a checkpoint of its base, differing only after it, reaches the variant's own hash")
    func variantsFromACheckpoint() throws {
        let base = try Self.pushed(0)
        var configuration = base.configuration.dynamics
        configuration.workerCount = 1
        let run = try SceneRun(base, configuration: configuration)
        for _ in 0..<60 { try run.step() } // the push is due at the start of step 61: not done yet
        let checkpoint = run.checkpoint()
        for vx in [-300.0, 0, 250] {
            let variant = try Self.pushed(vx)
            let whole = try SceneRun(variant, configuration: configuration)
            for _ in 0..<120 { try whole.step() }
            let started = try SceneRun(variant, continuing: base, checkpoint: checkpoint, workerCount: 2)
            #expect(started.steps == 60)
            for _ in 0..<60 { try started.step() }
            #expect(started.world.stateHash() == whole.world.stateHash(), "vx \(vx)")
            #expect(started.regionThroughput("band") == whole.regionThroughput("band"))
        }
        // The solver's settings apply from the checkpoint on: 8 substeps after it, not the base's 4.
        let finer = try SceneRun(try Self.pushed(100, substeps: 8), continuing: base, checkpoint: checkpoint)
        #expect(finer.world.configuration.substeps == 8)
        // What the run had done by then may not differ: the balls' count, or a push already applied.
        var counted = base
        counted.generators[0].count = 4
        func field(_ document: SceneDocument, _ checkpoint: Data) -> String? {
            do {
                _ = try SceneRun(document, continuing: base, checkpoint: checkpoint)
                return nil
            } catch {
                guard case let .invalidSnapshot(field, _) = error else { return "other: \(error)" }
                return field
            }
        }
        #expect(field(counted, checkpoint) == "document/generators/0/count")
        let later = try SceneRun(base, configuration: configuration)
        for _ in 0..<61 { try later.step() } // the push applied
        #expect(field(try Self.pushed(5), later.checkpoint()) == "document/timeline/0/velocity/linear/0")
        let message = DynamicsError.invalidSnapshot(field: "document/generators/0/count", value: 60).description
        #expect(message == "the scene differs from the checkpoint's at /generators/0/count, which its run had done by step 60")
    }

    @Test("a checkpoint of another scene, or a world's snapshot, is no checkpoint of this run")
    func refusesOthers() throws {
        let pile = try #require(Scene.named("pile")).document(items: 50)
        let pyramid = try #require(Scene.named("pyramid")).document(items: 50)
        let run = try SceneRun(pile)
        try run.step()
        func field(_ document: SceneDocument, _ bytes: Data) -> String? {
            do {
                _ = try SceneRun(document, checkpoint: bytes)
                return nil
            } catch {
                guard case let .invalidSnapshot(field, _) = error else { return "other: \(error)" }
                return field
            }
        }
        #expect(field(pyramid, run.checkpoint()) == "document")
        #expect(field(pile, run.world.snapshot()) == "run")
        #expect(field(pile, run.checkpoint()) == nil)
    }
}
