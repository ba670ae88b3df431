// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneRun {
    /// Beyond UIKit: the run's state as bytes, which ``init(_:checkpoint:workerCount:)`` continues: the world's
    /// snapshot (`DynamicWorld.snapshot()`), with the run's step count, the region counts and what its
    /// attachments measured when they were made.
    ///
    /// A run read from a checkpoint steps on as this one would, its timeline included: after any number of
    /// further ``step()`` calls both have the same state hash and the same items, names and region counts. Take it
    /// between steps; it does not change the run.
    public func checkpoint() -> Data {
        let state = SceneRunCheckpoint(
            document: SceneRunCheckpoint.fingerprint(document), steps: steps, lengths: live.map { Double($0.length) },
            regionEntries: regionEntries,
            regionEvents: regionEvents.map { .init(region: $0.region, item: $0.item, entered: $0.entered) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return world.snapshot(userData: try? encoder.encode(state))
    }

    /// Beyond UIKit: continues a run of `document` from a ``checkpoint()``, stepping with `workerCount` workers
    /// (default: the active processors; results do not depend on it).
    ///
    /// The document must be the one the checkpoint's run was made from. The run is rebuilt from it and its
    /// timeline replayed up to the checkpoint's step (items made and removed, behaviours started and ended, as
    /// the original run did), without stepping; then the checkpoint's world takes the place of the rebuilt one.
    /// Throws `DynamicsError.invalidSnapshot(field:value:)` for bad bytes (see
    /// `DynamicWorld(snapshot:workerCount:)`), with field `run` for a world's snapshot that is no run's
    /// checkpoint and `document` for a checkpoint of another scene.
    public convenience init(_ document: SceneDocument, checkpoint: Data, workerCount: Int? = nil) throws(DynamicsError) {
        try self.init(document, continuing: document, checkpoint: checkpoint, workerCount: workerCount)
    }

    /// Beyond UIKit: a variant of `base` started from a checkpoint of a run of `base`: the variant may differ
    /// from `base` only in what comes after the checkpoint (timeline events not yet due at its step, the
    /// run's duration) and in the solver's settings (`substeps`, `adaptiveSubsteps`, `contactFrequency`,
    /// `solverIterations`, `rest`), which apply from the checkpoint on. So a sweep settles its base scene once
    /// and starts each variant from there, its parameters pointing into the timeline (a behaviour added at the
    /// checkpoint's time, say).
    ///
    /// Throws as ``init(_:checkpoint:workerCount:)``, and `DynamicsError.invalidSnapshot(field:value:)` with
    /// field `document` followed by the JSON Pointer of the first difference (`document/generators/0/count`)
    /// when the variant differs from `base` in what the checkpoint's run already did; its value is the
    /// checkpoint's step.
    public convenience init(_ document: SceneDocument, continuing base: SceneDocument, checkpoint: Data,
                            workerCount: Int? = nil) throws(DynamicsError)
    {
        let (world, userData) = try DynamicWorld.readSnapshot(checkpoint, workerCount: workerCount)
        guard let userData, let state = try? JSONDecoder().decode(SceneRunCheckpoint.self, from: userData) else {
            throw .invalidSnapshot(field: "run", value: 0)
        }
        guard state.document == SceneRunCheckpoint.fingerprint(base) else {
            throw .invalidSnapshot(field: "document", value: 0)
        }
        if document != base {
            let done = SceneRunCheckpoint.done(document, steps: state.steps), baseDone = SceneRunCheckpoint.done(base, steps: state.steps)
            if let pointer = SceneRunCheckpoint.firstDifference(done, baseDone) {
                throw .invalidSnapshot(field: "document" + pointer, value: Double(state.steps))
            }
        }
        try self.init(document, configuration: world.configuration)
        for _ in 0..<state.steps {
            try applyDueEvents()
            steps += 1
        }
        guard state.lengths.count == live.count, state.regionEntries.count == document.regions.count,
              state.regionEvents.allSatisfy({ $0.item >= 0 && $0.item < itemIDs.count })
        else { throw .invalidSnapshot(field: "run", value: Double(state.steps)) }
        if document != base { // the variant's solver settings, from here on
            var c = world.configuration
            let v = document.configuration
            (c.substeps, c.adaptiveSubsteps, c.contactFrequency) = (v.substeps, v.adaptiveSubsteps, v.contactFrequency)
            (c.solverIterations, c.restDetection) = (v.solverIterations, v.rest)
            try world.reconfigure(c)
        }
        self.world = world
        itemIDs = itemIDs.map(world.owned)
        for k in live.indices { live[k].length = CGFloat(state.lengths[k]) }
        // Which items are in each region after the last step: those not removed whose centres are in it.
        regionInside = document.regions.map { region in
            itemIDs.indices.map { !isRemoved[$0] && region.contains(world.pose(of: itemIDs[$0]).center) }
        }
        regionEntries = state.regionEntries
        regionEvents = state.regionEvents.map { SceneRegionEvent(region: $0.region, item: $0.item, entered: $0.entered) }
    }
}

/// What a ``SceneRun`` checkpoint stores beside the world's snapshot.
struct SceneRunCheckpoint: Codable {
    struct RegionEvent: Codable {
        var region: String
        var item: Int
        var entered: Bool
    }

    /// The document's fingerprint (``fingerprint(_:)``).
    var document: UInt64
    var steps: Int
    /// Each live behaviour's length (an attachment's, as measured when it was made), in order.
    var lengths: [Double]
    var regionEntries: [Int]
    var regionEvents: [RegionEvent]

    /// A 64-bit FNV-1a hash of the document's JSON: the same scene gives the same fingerprint.
    static func fingerprint(_ document: SceneDocument) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in document.json.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    /// What of a document a run has done by `steps`: the document with the timeline's events not yet due then
    /// left out, and what a variant may change from there on (its duration, the solver's settings) set aside.
    static func done(_ document: SceneDocument, steps: Int) -> SceneValue {
        var d = document
        let stepsPerSecond = d.configuration.stepsPerSecond
        // (an event is applied before the first step at or after its time: by `steps` steps, those due by the
        // start of the last one)
        d.timeline = d.timeline.filter { $0.time * stepsPerSecond <= Double(steps - 1) + 1e-9 }
        let defaults = SceneConfiguration()
        d.configuration.duration = defaults.duration
        d.configuration.substeps = defaults.substeps
        d.configuration.adaptiveSubsteps = defaults.adaptiveSubsteps
        d.configuration.contactFrequency = defaults.contactFrequency
        d.configuration.solverIterations = defaults.solverIterations
        d.configuration.rest = defaults.rest
        d.configuration.workers = nil
        return d.value
    }

    /// The JSON Pointer of the first place where two values differ (keys in order), or nil when they are equal.
    static func firstDifference(_ a: SceneValue, _ b: SceneValue, at pointer: String = "") -> String? {
        switch (a, b) {
        case let (.object(x), .object(y)):
            for key in Set(x.keys).union(y.keys).sorted() {
                guard let u = x[key], let v = y[key] else { return pointer + "/" + key }
                if let found = firstDifference(u, v, at: pointer + "/" + key) { return found }
            }
            return nil
        case let (.array(x), .array(y)):
            for (k, (u, v)) in zip(x, y).enumerated() {
                if let found = firstDifference(u, v, at: pointer + "/\(k)") { return found }
            }
            return x.count == y.count ? nil : pointer + "/\(min(x.count, y.count))"
        default:
            return a == b ? nil : (pointer.isEmpty ? "/" : pointer)
        }
    }
}
