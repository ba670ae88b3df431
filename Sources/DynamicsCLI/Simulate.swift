// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Dynamics
import DynamicsScenes
import Foundation
import Synchronization

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a built-in scene or a scene file and write its trajectories and summary.",
        discussion: """
            SCENE is a scene file (.json, .yaml, .yml; see `dynamics validate`) or a built-in scene name \
            (`dynamics scenes`); without it, the built-in default scene. Flags override the file's \
            configuration. Outputs are chosen by extension and may be repeated: --output run.csv --output \
            run.jsonl. Every output is written under a temporary name and renamed when complete. Exit status: \
            0 done, 64 usage, 65 invalid scene, 66 cannot open, 73/74 cannot write, 130 interrupted.
            """
    )

    @Argument(help: "A scene file or a built-in scene name.", completion: .custom(SceneSource.completions))
    var scene: String = "default"

    @Option(parsing: .unconditional, help: "Number of items of a built-in scene (default: the scene's).")
    var items: Int?

    @Option(parsing: .unconditional, help: "Simulated seconds (default: the file's duration or the built-in's).")
    var seconds: Double?

    @Option(parsing: .unconditional, help: "Steps per simulated second (default: the file's, or 60).")
    var stepsPerSecond: Double?

    @Option(parsing: .unconditional, help: "Seed of the scene's random generators and the world (default: the file's, or 0).")
    var seed: Int?

    @OptionGroup var engine: EngineOptions

    @OptionGroup var limits: LimitOptions

    @Option(name: .long, help: "An output file, by extension: .csv or .jsonl trajectories, .html playback page, .svg picture, .npz NumPy arrays (repeatable).")
    var output: [String] = []

    @Option(parsing: .unconditional, help: "Write trajectories every K steps (the first and last steps are always written).")
    var every: Int = 1

    @Option(name: .customLong("frames"), help: "Times (s) of the panels of an .svg output, comma-separated (default: the last frame only).")
    var pictureTimes: String?

    @Option(help: "Only these items in trajectories: comma-separated ids or tags (default: every item).")
    var track: String?

    @Option(help: "Write contact events (began and ended), and items entering and leaving the scene's regions, as JSON Lines to this file.")
    var events: String?

    @Option(help: "Write the summary as JSON to this file.")
    var summary: String?

    @Flag(help: "Add every tracked item's final state to the summary (id, x, y, angle, vx, vy, omega).")
    var finalStates = false

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @Flag(help: "No progress, notices or text summary on the terminal (--json still prints its summary).")
    var quiet = false

    @Option(help: "Keep a checkpoint of the run in this file: every --checkpoint-every seconds, and when interrupted (SIGTERM or SIGINT), which then keeps the partial outputs for `--resume` (removed when the run completes).")
    var checkpoint: String?

    @Option(parsing: .unconditional, help: "Wall-clock seconds between checkpoints (0: after every step).")
    var checkpointEvery: Double = 600

    @Option(parsing: .unconditional, help: "Stop when the run reaches this simulated time (s), writing the checkpoint, as if interrupted then (needs --checkpoint).")
    var pauseAt: Double?

    @Option(help: "Continue the run in this checkpoint file, with the arguments it was started with (--quiet may be added); its outputs come out as if it had never stopped.")
    var resume: String?

    func validate() throws {
        guard checkpointEvery.isFinite, checkpointEvery >= 0 else {
            throw ValidationError("--checkpoint-every must be ≥ 0 seconds, got \(checkpointEvery)")
        }
        if let pauseAt {
            guard pauseAt.isFinite, pauseAt > 0 else { throw ValidationError("--pause-at must be > 0 seconds, got \(pauseAt)") }
            guard checkpoint != nil || resume != nil else { throw ValidationError("--pause-at writes a checkpoint: give --checkpoint FILE") }
        }
        if let items, !(1...1_000_000_000).contains(items) { throw ValidationError("--items must be 1…1000000000, got \(items)") }
        if let seconds, !(seconds.isFinite && seconds > 0 && seconds <= 1e6) {
            throw ValidationError("--seconds must be > 0 and ≤ 1000000, got \(seconds)")
        }
        if let stepsPerSecond, !(stepsPerSecond.isFinite && stepsPerSecond >= 1 && stepsPerSecond <= 100_000) {
            throw ValidationError("--steps-per-second must be 1…100000, got \(stepsPerSecond)")
        }
        if let seed, seed < 0 { throw ValidationError("--seed must be ≥ 0, got \(seed)") }
        guard every >= 1 else { throw ValidationError("--every must be ≥ 1, got \(every)") }
        for path in output {
            let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
            guard ["csv", "jsonl", "html", "svg", "npz"].contains(ext) else {
                throw ValidationError("--output \(path): unsupported extension '.\(ext)' (csv, jsonl, html, svg, npz)")
            }
        }
        if let pictureTimes {
            let times = pictureTimes.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard !times.isEmpty, times.allSatisfy({ $0.map { $0.isFinite && $0 >= 0 && $0 <= 1e6 } ?? false }) else {
                throw ValidationError("--frames must be times in seconds, 0…1000000, comma-separated, got '\(pictureTimes)'")
            }
            guard output.contains(where: { URL(fileURLWithPath: $0).pathExtension.lowercased() == "svg" }) else {
                throw ValidationError("--frames sets the panels of an .svg --output, and none is given")
            }
        }
    }

    func run() throws {
        try reportingFailures {
            if let resume { try Self.resuming(resume, quiet: quiet, json: json, pauseAt: pauseAt) } else { try simulate(resuming: nil) }
        }
    }

    /// `--resume FILE`: the checkpoint's command, continued. Nothing else may be given but --quiet: the run's
    /// arguments are the checkpoint's.
    static func resuming(_ path: String, quiet: Bool, json: Bool, pauseAt: Double?) throws {
        var given = Self.invocationArguments().filter { $0 != "--quiet" && $0 != "--json" }
        if let k = given.firstIndex(of: "--pause-at"), k + 1 < given.count { given.removeSubrange(k...(k + 1)) }
        given.removeAll { $0.hasPrefix("--pause-at=") }
        guard given == ["--resume", path] || given == ["--resume=\(path)"] else {
            throw CLIError(.usage, "--resume takes the run's arguments from the checkpoint: give only --resume FILE (and --pause-at, --quiet, --json)")
        }
        let (state, run) = try SimulationCheckpoint.read(path)
        var command: Simulate
        do { command = try Simulate.parse(state.arguments) } catch {
            throw CLIError(.data, "invalid checkpoint \(path): its arguments do not parse: \(Simulate.message(for: error))")
        }
        guard command.resume == nil else { throw CLIError(.data, "invalid checkpoint \(path): its arguments resume a run") }
        if quiet { command.quiet = true }
        if json { command.json = true }
        if let pauseAt {
            guard command.checkpoint != nil else { throw CLIError(.usage, "--pause-at writes a checkpoint, and this run keeps none") }
            command.pauseAt = pauseAt
        }
        try command.simulate(resuming: (state, run))
    }

    /// The arguments after `simulate` on this process's command line.
    static func invocationArguments() -> [String] {
        let all = CommandLine.arguments
        guard let k = all.firstIndex(of: "simulate") else { return Array(all.dropFirst()) }
        return Array(all[(k + 1)...])
    }

    /// The --frames times (s), when given.
    private var pictureTimeList: [Double]? {
        pictureTimes.map { $0.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
    }

    /// A time as short as it reads exactly: 5, 2.5, 0.016667.
    static func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%g", seconds)
    }

    private func simulate(resuming: (state: SimulationCheckpoint, run: Data)?) throws {
        Interrupt.install()  // before anything is built, so that an early Ctrl-C still removes partial outputs
        let document: SceneDocument, configuration: DynamicsConfiguration, sceneName: String
        if let resuming { // the scene as the run began it; the world's configuration from the checkpoint
            do { document = try SceneDocument.parse(Data(resuming.state.document.utf8)) } catch {
                throw CLIError(.data, "invalid checkpoint: its scene does not read: \(error)")
            }
            sceneName = resuming.state.sceneName
            configuration = try engine.configuration(base: document.configuration.dynamics)
        } else {
            (document, configuration, sceneName) = try sceneAndConfiguration()
        }
        // The run's length is checked before the world is built, which for a large scene takes a while.
        let duration = seconds ?? document.configuration.duration
        let steps = Int((duration * configuration.stepsPerSecond).rounded())
        guard steps >= 1 else {
            throw CLIError(.usage, "--seconds \(duration) is shorter than one step (1/\(configuration.stepsPerSecond) s)")
        }
        if let times = pictureTimeList {
            let end = Double(steps) / configuration.stepsPerSecond
            if let outside = times.first(where: { $0 > end + 0.5 / configuration.stepsPerSecond }) {
                throw CLIError(.usage, "--frames \(Self.formatted(outside)): outside the run, which lasts \(Self.formatted(end)) s (--frames takes times from 0 to \(Self.formatted(end)))")
            }
        }
        let pauseStep = pauseAt.map { Int(($0 * configuration.stepsPerSecond).rounded()) }
        let run: SceneRun
        if let resuming {
            run = try SceneRun(document, checkpoint: resuming.run, workerCount: configuration.workerCount)
            guard run.steps == resuming.state.step, run.steps < steps else {
                throw CLIError(.data, "invalid checkpoint: its run stands at step \(run.steps) of \(steps)")
            }
        } else {
            run = try SceneRun(document, configuration: configuration)
        }
        let world = run.world, ids = run.itemIDs, names = run.itemNames
        // Which items the trajectories hold (as the run's start chose them).
        var tracked = resuming?.state.tracked ?? Array(ids.indices)
        if let track, resuming == nil {
            let wanted = track.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            let known = Set(names)
            for name in wanted where !known.contains(name) && run.indices(of: SceneTargets(tags: [name])).isEmpty {
                throw CLIError(.usage, "--track: no item or tag '\(name)'")
            }
            tracked = run.indices(of: SceneTargets(items: wanted.filter { known.contains($0) }, tags: wanted.filter { !known.contains($0) }))
        }
        guard tracked.allSatisfy({ $0 >= 0 && $0 < ids.count }) else { throw CLIError(.data, "invalid checkpoint: tracked items out of range") }
        let frames = steps / every + 1 + (steps % every == 0 ? 0 : 1)
        let frameSource = FrameSource(run: run, tracked: tracked, frames: frames, stepsPerSecond: world.configuration.stepsPerSecond,
                                      every: every)
        let writers: [any FrameSink] = try output.map { path in
            switch URL(fileURLWithPath: path).pathExtension.lowercased() {
            case "csv": try TrajectoryWriter(path: path, format: .csv, source: frameSource)
            case "jsonl": try TrajectoryWriter(path: path, format: .jsonl, source: frameSource)
            case "svg": try PictureWriter(path: path, source: frameSource, times: pictureTimeList)
            case "npz": try NumpyArchiveWriter(path: path, source: frameSource)
            default: try PlaybackWriter(path: path, source: frameSource)
            }
        }
        let eventFile = try events.map { try AtomicFile($0) }
        let summaryFile = try summary.map { try AtomicFile($0) }
        var itemName = Dictionary(zip(ids, names), uniquingKeysWith: { a, _ in a }), named = ids.count
        let stepsPerSecond = world.configuration.stepsPerSecond

        var top = TopItem(in: world)
        var timer = StepTimer(capacity: steps)
        var first = 1
        if let state = resuming?.state { // the outputs and the summary's records as they stood at the checkpoint
            guard state.sinks.count == writers.count, (state.events == nil) == (eventFile == nil) else {
                throw CLIError(.data, "invalid checkpoint: its outputs are not the run's")
            }
            for (writer, sink) in zip(writers, state.sinks) { try writer.resume(sink) }
            if let eventFile, let recorded = state.events { try eventFile.resume(recorded) }
            top = TopItem(id: state.topItem.flatMap { $0.count == 2 ? ItemID(index: $0[0], generation: $0[1]) : nil },
                          startY: state.topStartY)
            timer = StepTimer(milliseconds: state.milliseconds, capacity: steps)
            first = state.step + 1
        }
        let progress = Progress(total: steps, stepsPerSecond: stepsPerSecond, enabled: !quiet)
        func writeFrame(_ step: Int) throws {
            for writer in writers { try writer.frame(step: step, time: Double(step) / stepsPerSecond) }
        }
        /// Writes the checkpoint of the run after `step` steps.
        func saveCheckpoint(_ path: String, step: Int) throws {
            let state = SimulationCheckpoint(
                arguments: resuming?.state.arguments ?? Self.invocationArguments(), document: document.json,
                sceneName: sceneName, step: step, tracked: tracked, sinks: try writers.map { try $0.checkpoint() },
                events: try eventFile?.checkpoint(), milliseconds: timer.milliseconds,
                topItem: top.id.map { [$0.index, $0.generation] }, topStartY: top.startY)
            try state.write(run: run.checkpoint(), to: path)
        }
        if resuming == nil { try writeFrame(0) }
        var lastCheckpoint = ContinuousClock.now
        for k in first...steps {
            // (a run resumed at or past its pause time goes on: only a later one pauses it)
            if Interrupt.requested || (pauseStep.map { k - 1 >= $0 && $0 >= first } ?? false) {
                progress.finish()
                guard let checkpoint else {
                    AtomicFile.discardAll()
                    throw CLIError(.interrupted, "interrupted after \(k - 1) of \(steps) steps; no output written")
                }
                try saveCheckpoint(checkpoint, step: k - 1)
                summaryFile?.discard() // (written whole at the end of the resumed run)
                AtomicFile.keepAll() // the checkpoint names the others
                let why = Interrupt.requested ? "interrupted" : "paused"
                throw CLIError(.interrupted, "\(why) after \(k - 1) of \(steps) steps; checkpoint \(checkpoint) written (continue: dynamics simulate --resume \(checkpoint))")
            }
            try timer.measure { try run.step() }
            if let eventFile {
                // Items the timeline made name their events too.
                for i in named..<run.itemIDs.count { itemName[run.itemIDs[i]] = run.itemNames[i] }
                named = run.itemIDs.count
                let time = String(format: "%.6f", Double(k) / stepsPerSecond)
                for event in world.contactEvents {
                    try eventFile.write(Self.eventLine(event, step: k, time: time, items: itemName, boundaries: run.boundaryNames))
                }
                for event in run.regionEvents {
                    try eventFile.write(Self.regionLine(event, step: k, time: time, item: run.itemNames[event.item]))
                }
            }
            if k % every == 0 || k == steps { try writeFrame(k) }
            for writer in writers { try writer.afterStep(k) }
            progress.update(k)
            if let checkpoint, k < steps, ContinuousClock.now - lastCheckpoint >= .seconds(checkpointEvery) {
                try saveCheckpoint(checkpoint, step: k)
                lastCheckpoint = ContinuousClock.now
            }
        }
        progress.finish()
        let result = SimulationSummary(
            scene: sceneName, items: world.itemCount, awakeItems: world.awakeItemCount, steps: steps,
            simulatedSeconds: world.elapsedTime, msPerStepMedian: timer.medianMilliseconds,
            stepsPerSecond: 1000 / max(timer.meanMilliseconds, 1e-9), kineticEnergy: world.kineticEnergy,
            simd: world.simdPath, integrator: world.configuration.integrator.rawValue, workers: world.configuration.workerCount,
            blas: DynamicWorld.blasLibrary, stateHash: String(format: "%016llx", world.stateHash()),
            topItemSink: top.sink(in: world),
            finalItems: finalStates ? tracked.map { i in
                let id = ids[i], (c, a) = world.pose(of: id), v = world.velocity(of: id)
                return ItemState(id: names[i], x: Double(c.x), y: Double(c.y), angle: Double(a), vx: Double(v.dx), vy: Double(v.dy),
                                 omega: Double(world.angularVelocity(of: id)))
            } : nil)
        // Encoded before any output is kept: a diverged run throws here and leaves no file behind.
        let summaryJSON = try result.encoded()
        for writer in writers { try writer.finish() }
        try eventFile?.commit()
        if let summaryFile {
            try summaryFile.write(summaryJSON + "\n")
            try summaryFile.commit()
        }
        if let checkpoint { unlink(checkpoint) } // the run is complete: nothing to continue
        AtomicFile.reportWritten(quiet: quiet)
        if json { print(summaryJSON) } else if !quiet { print(result.text) }
    }

    /// A fresh run's scene (a built-in's document for the chosen item count), its configuration after the flags,
    /// and its name.
    private func sceneAndConfiguration() throws -> (SceneDocument, DynamicsConfiguration, String) {
        let source = try SceneSource.resolve(scene, limits: limits.limits)
        switch source {
        case .builtIn(let recipe): try MemoryEstimate.check(items: items ?? recipe.defaultItems, scene: recipe.name)
        case .file(let document, _): try MemoryEstimate.check(items: document.items.count + document.generators.reduce(0) { $0 + $1.count })
        }
        var document: SceneDocument
        var base: DynamicsConfiguration
        switch source {
        case .builtIn(let recipe):
            document = recipe.document(items: items)
            base = DynamicsConfiguration()
            if !recipe.restDetection { base.restDetection = false }
        case .file(let file, _):
            if items != nil { throw CLIError(.usage, "--items applies to built-in scenes; a scene file lists its items") }
            document = file
            base = file.configuration.dynamics
        }
        if let stepsPerSecond { base.stepsPerSecond = stepsPerSecond }
        if let seed {
            base.seed = UInt64(seed)
            document.configuration.seed = UInt64(seed)
        }
        return (document, try engine.configuration(base: base), source.name)
    }

    /// One contact event as a JSON line: step, time, began, the two parties (item ids, or boundary
    /// identifiers: null for the reference bounds) and the contact point (pt) when known.
    static func eventLine(_ e: ContactEvent, step: Int, time: String, items: [ItemID: String],
                          boundaries: [BoundaryID: String]) -> String
    {
        func party(_ p: ContactEvent.Party) -> String {
            switch p {
            case .item(let id): "{\"item\":\(TrajectoryWriter.jsonString(items[id] ?? "\(id)"))}"
            case .boundary(let id): "{\"boundary\":\(boundaries[id].map(TrajectoryWriter.jsonString) ?? "null")}"
            }
        }
        let point = e.point.map { "[\(TrajectoryWriter.number(Float($0.x))),\(TrajectoryWriter.number(Float($0.y)))]" } ?? "null"
        return "{\"step\":\(step),\"time\":\(time),\"began\":\(e.began),\"a\":\(party(e.first)),\"b\":\(party(e.second)),\"point\":\(point)}\n"
    }
}

extension Simulate {
    /// One region event as a JSON line: step, time, the region's id, the item's id, and whether it entered
    /// (`"entered":true`) or left the region.
    static func regionLine(_ e: SceneRegionEvent, step: Int, time: String, item: String) -> String {
        "{\"step\":\(step),\"time\":\(time),\"region\":\(TrajectoryWriter.jsonString(e.region)),"
            + "\"item\":\(TrajectoryWriter.jsonString(item)),\"entered\":\(e.entered)}\n"
    }
}

/// SIGINT and SIGTERM during a run: the step loop stops at the next step and removes its partial outputs.
enum Interrupt {
    static let flag = Atomic<Bool>(false)
    nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = []

    static var requested: Bool { flag.load(ordering: .relaxed) }

    static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { flag.store(true, ordering: .relaxed) }
            source.resume()
            sources.append(source)
        }
    }
}

/// An item's state at the end of a run: pt, rad, pt/s, rad/s.
struct ItemState: Encodable {
    let id: String
    let x, y, angle, vx, vy, omega: Double
}

/// What `dynamics simulate` reports.
struct SimulationSummary: Encodable {
    let scene: String
    let items, awakeItems, steps: Int
    let simulatedSeconds, msPerStepMedian, stepsPerSecond, kineticEnergy: Double
    let simd, integrator: String
    let workers: Int
    let blas, stateHash: String
    /// How far the item that started highest sank by the end, pt (the top of a stack).
    let topItemSink: Double
    /// With --final-states: each tracked item's state at the end.
    let finalItems: [ItemState]?

    var text: String {
        """
        scene            \(scene)
        items            \(items) (\(awakeItems) awake at the end)
        steps            \(steps) (\(String(format: "%.2f", simulatedSeconds)) simulated s)
        ms/step median   \(String(format: "%.4f", msPerStepMedian))
        steps/s          \(String(format: "%.1f", stepsPerSecond))
        kinetic energy   \(String(format: "%.6g", kineticEnergy)) mass·pt²/s²
        SIMD path        \(simd) (integrator \(integrator), \(workers) worker\(workers == 1 ? "" : "s"))
        BLAS             \(blas)
        state hash       \(stateHash)
        top item sank    \(String(format: "%.2f", topItemSink)) pt
        """
    }

    /// The summary as one JSON object. A number that is not finite (the simulation diverged: its state
    /// overflowed) cannot be written as JSON: that throws, naming the field and its value.
    func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        } catch EncodingError.invalidValue(let value, let context) {
            let field = context.codingPath.map { key in
                key.intValue.map { "[\($0)]" } ?? key.stringValue.reduce(into: "") { $0 += $1.isUppercase ? "_" + $1.lowercased() : String($1) }
            }.joined(separator: ".")
            throw CLIError(.data, "the simulation diverged: summary field \(field) is \(value), not a finite number; no output written")
        }
    }
}
