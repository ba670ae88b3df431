// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation

/// Runs one shard of a sweep into a results folder: the manifest, the shard's rows, and the per-variant
/// outputs the sweep asks for (`variants/INDEX-ID.EXT`).
struct SweepRunner {
    let loaded: LoadedSweep
    let directory: URL
    let shard: SweepShard
    let threads: ThreadOptions
    /// Exit 65 when any variant failed, not only when all did.
    let strict: Bool
    let quiet: Bool

    func run() throws {
        Interrupt.install()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CLIError(.cannotCreate, "cannot create \(directory.path): \(error.localizedDescription)")
        }
        try writeManifest()
        let name = String(format: "shard-%04d-of-%04d.jsonl", shard.index, shard.count)
        let final = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: final.path) {
            if !quiet { FileHandle.standardError.write(Data("dynamics: shard \(shard) is complete already (\(final.path))\n".utf8)) }
            return
        }
        let results = try SweepResultsFile(directory.appendingPathComponent(name + ".partial"), manifest: loaded.manifest)
        let sweep = loaded.sweep
        let owned = Array(stride(from: shard.index, to: sweep.variantCount, by: shard.count))
        let todo = owned.filter { !results.recorded.contains($0) }
        let start = ContinuousClock.now
        var lastNote = start, done = 0
        var failed = 0, firstFailure: SweepRow?
        for k in todo {
            guard !Interrupt.requested, let row = try runVariant(sweep.variant(k)) else {
                AtomicFile.discardAll()
                throw CLIError(.interrupted, "interrupted: \(owned.count - todo.count + done) of \(owned.count) variants of shard \(shard) recorded in \(results.url.path); run again to finish")
            }
            try results.append(row.line(loaded.manifest))
            done += 1
            if row.error != nil {
                failed += 1
                firstFailure = firstFailure ?? row
            }
            if !quiet, ContinuousClock.now - lastNote > .seconds(1) || done == todo.count {
                lastNote = ContinuousClock.now
                let seconds = Self.seconds(ContinuousClock.now - start)
                let failures = failed == 0 ? "" : ", \(failed) failed"
                let note = String(format: "dynamics: shard %@: %d of %d variants%@ (%.1f s, %.3f s per variant)\n", shard.description,
                                  owned.count - todo.count + done, owned.count, failures, seconds, seconds / Double(done))
                FileHandle.standardError.write(Data(note.utf8))
            }
        }
        try results.complete(as: final)
        guard let first = firstFailure else { return }
        let summary = "shard \(shard): \(failed) of \(done) variants failed (rows written to \(final.path)); first, variant \(first.index): \(first.error ?? "")"
        if failed == done || strict { throw CLIError(.data, summary) }
        FileHandle.standardError.write(Data("dynamics: \(summary)\n".utf8))
    }

    static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

    /// The results folder's manifest: written when absent; otherwise it must be this sweep's.
    private func writeManifest() throws {
        let url = directory.appendingPathComponent("sweep.json")
        if let data = try? Data(contentsOf: url) {
            guard let existing = SweepManifest.read(data) else {
                throw CLIError(.cannotCreate, "\(url.path) is not a sweep results manifest; use another --output folder")
            }
            guard existing.fingerprint == loaded.manifest.fingerprint else {
                throw CLIError(.cannotCreate, "\(directory.path) holds the results of another sweep ('\(existing.name)', fingerprint \(existing.fingerprint)); use another --output folder")
            }
            return
        }
        let file = try AtomicFile(url.path)
        try file.write(loaded.manifest.text)
        try file.commit()
    }

    /// One variant: its scene, run for the sweep's time with its metrics measured and its outputs written;
    /// an error row when its scene is invalid or its run diverges; nil when interrupted (nothing recorded).
    private func runVariant(_ v: SweepVariant) throws -> SweepRow? {
        let sweep = loaded.sweep
        func failed(_ reason: String) -> SweepRow {
            AtomicFile.discardAll()
            return SweepRow(index: v.index, id: v.id, parameters: v.values, metrics: [], error: reason)
        }
        let scene: SceneValue
        do {
            scene = try sweep.scene(of: v, base: loaded.base)
        } catch {
            return failed(error.description)
        }
        let document: SceneDocument
        do {
            document = try SceneDocument.parse(Data(scene.text.utf8))
        } catch {
            return failed("invalid scene: \(error)")
        }
        do {
            let configuration = try threads.configuration(base: document.configuration.dynamics)
            let run = try loaded.start.map { start throws(DynamicsError) in
                try SceneRun(document, continuing: start.document, checkpoint: start.run, workerCount: configuration.workerCount)
            } ?? SceneRun(document, configuration: configuration)
            let stepsPerSecond = run.world.configuration.stepsPerSecond
            let steps = Int(((sweep.seconds ?? document.configuration.duration) * stepsPerSecond).rounded())
            let first = run.steps // (the checkpoint's, when the variants start from one)
            guard steps > first else { return failed(first > 0 ? "the run ends before the checkpoint it starts from" : "the run is shorter than one step") }
            let writers = try outputs(for: v, run: run, from: first, to: steps)
            for writer in writers { try writer.frame(step: first, time: Double(first) / stepsPerSecond) }
            var measurement = SweepMeasurement(metrics: sweep.metrics)
            for k in (first + 1)...steps {
                if Interrupt.requested { return nil }
                try run.step()
                try measurement.observe(run)
                if k % sweep.every == 0 || k == steps { for writer in writers { try writer.frame(step: k, time: Double(k) / stepsPerSecond) } }
                for writer in writers { try writer.afterStep(k) }
            }
            let metrics = try measurement.values(run)
            for writer in writers { try writer.finish() }
            return SweepRow(index: v.index, id: v.id, parameters: v.values, metrics: metrics)
        } catch let error as SweepDivergence {
            return failed(error.description)
        } catch let error as DynamicsError {
            return failed(error.description)
        }
    }

    /// The per-variant outputs the sweep asks for, of steps `first` to `steps`.
    private func outputs(for v: SweepVariant, run: SceneRun, from first: Int, to steps: Int) throws -> [any FrameSink] {
        let sweep = loaded.sweep
        guard !sweep.outputs.isEmpty else { return [] }
        let folder = directory.appendingPathComponent("variants")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The first step's frame, every `every`-th step's after it, and the last step's.
        let frames = 1 + steps / sweep.every - first / sweep.every + (steps % sweep.every == 0 ? 0 : 1)
        let source = FrameSource(run: run, tracked: Array(run.itemIDs.indices), frames: frames,
                                 stepsPerSecond: run.world.configuration.stepsPerSecond, every: sweep.every)
        return try sweep.outputs.map { ext in
            let path = folder.appendingPathComponent(String(format: "%06d-%@.%@", v.index, v.id, ext)).path
            switch ext {
            case "csv": return try TrajectoryWriter(path: path, format: .csv, source: source)
            case "jsonl": return try TrajectoryWriter(path: path, format: .jsonl, source: source)
            case "svg": return try PictureWriter(path: path, source: source, times: nil)
            case "npz": return try NumpyArchiveWriter(path: path, source: source)
            default: return try PlaybackWriter(path: path, source: source)
            }
        }
    }
}
