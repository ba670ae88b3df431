// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Dynamics
import DynamicsScenes
import Foundation

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time a built-in scene and print the fields of the benchmark scenes.",
        discussion: """
            One untimed step, then --steps timed steps. Reports the median and mean wall time per step, CPU time \
            per step, the kernel's per-stage medians and the state hash (identical for every worker count). The \
            benchmark scenes and these fields are described in \
            Sources/DynamicsScenes/DynamicsScenes.docc/BenchmarkScenes.md.
            """
    )

    @Option(help: "A built-in scene name (see `dynamics scenes`).")
    var scene: String = "default"

    @Option(parsing: .unconditional, help: "Number of items (default: the scene's).")
    var items: Int?

    @Option(parsing: .unconditional, help: "Timed steps.")
    var steps: Int = 600

    @Option(help: ArgumentHelp(
        "Step with rest detection on until every item rests (at most this many simulated seconds), then time --steps steps at rest.",
        valueName: "seconds"))
    var untilRest: Double?

    @OptionGroup var engine: EngineOptions

    @Flag(help: "Print one JSON object (one line).")
    var json = false

    func run() throws {
        guard (1...10_000_000).contains(steps) else { throw ValidationError("--steps must be 1…10000000, got \(steps)") }
        if let items, !(1...1_000_000_000).contains(items) { throw ValidationError("--items must be 1…1000000000, got \(items)") }
        try MemoryEstimate.check(items: items ?? DynamicsCLI.scene(named: scene).defaultItems)
        let recipe = try DynamicsCLI.scene(named: scene)
        let configuration = try engine.configuration()
        if let untilRest {
            guard untilRest.isFinite, untilRest > 0, untilRest <= 3600 else {
                throw ValidationError("--until-rest must be in (0, 3600] simulated seconds, got \(untilRest)")
            }
            guard configuration.restDetection else { throw ValidationError("--until-rest needs rest detection (drop --no-rest)") }
        }
        let world = try recipe.makeWorld(items: items, configuration: configuration,
                                         keepRestDetection: untilRest != nil)
        let top = TopItem(in: world)
        try world.step(count: 1)  // untimed, as Box2D's benchmark does
        var settle: RestResult?
        if let untilRest {
            settle = try RestResult.settle(world, seconds: untilRest)
            guard settle?.restSeconds != nil else {
                throw ValidationError("\(world.awakeItemCount) of \(world.itemCount) items still awake after \(untilRest) s")
            }
        }
        var timer = StepTimer(capacity: steps)
        var solve: [Double] = [], partition: [Double] = [], broad: [Double] = [], narrow: [Double] = []
        var contact: [Double] = []
        let cpu0 = StepTimer.processCPUSeconds()
        for _ in 0..<steps {
            try timer.measure { try world.step(count: 1) }
            let p = world.lastStepProfile
            solve.append(p.solveNanoseconds / 1e6)
            partition.append(p.partitionNanoseconds / 1e6)
            broad.append(p.broadphaseNanoseconds / 1e6)
            narrow.append(p.narrowphaseNanoseconds / 1e6)
            contact.append(p.contactSolveNanoseconds / 1e6)
        }
        let cpu = (StepTimer.processCPUSeconds() - cpu0) * 1000 / Double(steps)
        let result = BenchResult(
            scene: recipe.name, shape: recipe.shape, items: world.itemCount, workers: configuration.workerCount,
            steps: steps, msPerStepMedian: timer.medianMilliseconds, msPerStepMean: timer.meanMilliseconds,
            cpuMsPerStep: cpu, stateHash: String(format: "%016llx", world.stateHash()),
            solveMsMedian: StepTimer.median(solve), partitionMsMedian: StepTimer.median(partition),
            broadphaseMsMedian: StepTimer.median(broad), narrowphaseMsMedian: StepTimer.median(narrow),
            contactSolveMsMedian: StepTimer.median(contact), contacts: world.contactCount,
            simd: world.simdPath, integrator: configuration.integrator.rawValue,
            substeps: configuration.substeps, contactFrequency: configuration.contactFrequency,
            solverIterations: configuration.solverIterations, awakeItems: world.awakeItemCount,
            topItemSink: top.sink(in: world), restSeconds: settle?.restSeconds,
            msPerStepAwakeMedian: settle?.msPerStepAwakeMedian)
        print(json ? result.json : result.text)
    }
}

/// One line of `dynamics bench --json` (the field names of the benchmark scenes,
/// Sources/DynamicsScenes/DynamicsScenes.docc/BenchmarkScenes.md).
struct BenchResult: Encodable {
    let engine = "dynamics"
    let scene, shape: String
    let items, workers, steps: Int
    let msPerStepMedian, msPerStepMean, cpuMsPerStep: Double
    let stateHash: String
    let solveMsMedian, partitionMsMedian: Double
    let broadphaseMsMedian, narrowphaseMsMedian, contactSolveMsMedian: Double
    let contacts: Int
    let simd, integrator: String
    let substeps: Int
    let contactFrequency: Double
    let solverIterations, awakeItems: Int
    /// How far the item that started highest sank by the end, pt (the top of a stack).
    let topItemSink: Double
    /// With --until-rest: simulated seconds until every item rested (from the scene's start).
    let restSeconds: Double?
    /// With --until-rest: the median ms/step of the steps before every item rested.
    let msPerStepAwakeMedian: Double?

    var json: String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    var text: String {
        """
        \(scene) (\(shape)), \(items) items, \(workers) worker(s), \(steps) steps, \(simd)/\(integrator), \
        \(substeps) substeps, \(String(format: "%g", contactFrequency)) Hz contacts, \(solverIterations) iteration(s)
        ms/step  median \(String(format: "%.4f", msPerStepMedian))  mean \(String(format: "%.4f", msPerStepMean))  \
        cpu \(String(format: "%.4f", cpuMsPerStep))
        stages   solve \(String(format: "%.4f", solveMsMedian))  partition \(String(format: "%.4f", partitionMsMedian))  \
        broadphase \(String(format: "%.4f", broadphaseMsMedian))  narrowphase \(String(format: "%.4f", narrowphaseMsMedian))  \
        contact solve \(String(format: "%.4f", contactSolveMsMedian))  (\(contacts) contacts)
        state    \(stateHash)  (top item sank \(String(format: "%.2f", topItemSink)) pt)
        """ + (restSeconds.map { seconds in
            "\nrest     every item rested after \(String(format: "%.3f", seconds)) s; awake steps median " +
                String(format: "%.4f", msPerStepAwakeMedian ?? 0) + " ms, the timed steps above are at rest"
        } ?? "")
    }
}
