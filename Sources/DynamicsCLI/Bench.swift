// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Dynamics
import DynamicsScenes
import Foundation

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time built-in scenes: one, or a sweep of scenes × items × workers with a table and a plot.",
        discussion: """
            One untimed step, then --steps timed steps. Reports the median and mean wall time per step, CPU time \
            per step, the kernel's per-stage medians, the resident memory per item and the state hash (identical \
            for every worker count). --scene, --items and --workers take comma-separated lists: every \
            combination runs --repeat times, the repeats interleaved, and a table (or one JSON object per line) \
            gives the median and smallest ms/step over the repeats, steps/s and the speed-up over 1 worker; \
            --plot draws ms/step against items. The benchmark scenes and the JSON fields are described in \
            Sources/DynamicsScenes/DynamicsScenes.docc/BenchmarkScenes.md.
            """
    )

    @Option(help: "Built-in scene names, comma-separated (see `dynamics scenes`).", completion: .list(Scene.builtIn.map(\.name)))
    var scene: String = "default"

    @Option(help: "Numbers of items, comma-separated (default: each scene's).")
    var items: String?

    @Option(parsing: .unconditional, help: "Timed steps per run.")
    var steps: Int = 600

    @Option(name: .customLong("repeat"), parsing: .unconditional, help: "Runs of each combination, interleaved.")
    var repeats: Int = 1

    @Option(help: ArgumentHelp(
        "Step with rest detection on until every item rests (at most this many simulated seconds), then time --steps steps at rest.",
        valueName: "seconds"))
    var untilRest: Double?

    @OptionGroup var engine: EngineOptions

    @Option(help: "Draw ms/step against items (log axes, a line per worker count, a panel per scene) into this .svg file.")
    var plot: String?

    @Flag(help: "Print one JSON object per combination (one line each).")
    var json = false

    @Flag(help: "No progress or notices on the terminal (the table or JSON is still printed).")
    var quiet = false

    struct Case: Hashable {
        let scene: String
        let items: Int?
        let workers: Int?
    }

    func run() throws {
        try reportingFailures { try bench() }
    }

    private func bench() throws {
        guard (1...10_000_000).contains(steps) else { throw CLIError(.usage, "--steps must be 1…10000000, got \(steps)") }
        guard (1...1000).contains(repeats) else { throw CLIError(.usage, "--repeat must be 1…1000, got \(repeats)") }
        let recipes = try scene.split(separator: ",").map { try DynamicsCLI.scene(named: String($0).trimmingCharacters(in: .whitespaces)) }
        guard !recipes.isEmpty else { throw CLIError(.usage, "--scene names no scene") }
        var counts: [Int?] = [nil]
        if let items {
            let parsed = items.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard parsed.allSatisfy({ $0.map { (1...1_000_000_000).contains($0) } ?? false }) else {
                throw CLIError(.usage, "--items must be 1…1000000000 (comma-separated), got '\(items)'")
            }
            counts = parsed
        }
        let workers: [Int?] = try engine.workerCounts() ?? [nil]
        if let plot, URL(fileURLWithPath: plot).pathExtension.lowercased() != "svg" { throw CLIError(.usage, "--plot \(plot): the plot is an .svg file") }
        if let untilRest {
            guard untilRest.isFinite, untilRest > 0, untilRest <= 3600 else {
                throw CLIError(.usage, "--until-rest must be in (0, 3600] simulated seconds, got \(untilRest)")
            }
        }
        let cases = recipes.flatMap { r in counts.flatMap { n in workers.map { Case(scene: r.name, items: n, workers: $0) } } }
        for c in cases { try MemoryEstimate.check(items: c.items ?? DynamicsCLI.scene(named: c.scene).defaultItems, scene: c.scene) }
        let machine = MachineInfo.current
        let progress = BenchProgress(total: cases.count * repeats, enabled: !quiet)
        var runs: [Case: [BenchResult]] = [:]
        for r in 0..<repeats {
            for c in cases {
                progress.show(c, repeat: r, of: repeats)
                runs[c, default: []].append(try measure(c))
            }
        }
        progress.finish()
        var results = cases.map { c in Self.combine(runs[c]!, machine: machine) }
        for k in results.indices where results[k].workers != 1 {
            let one = results.first { $0.scene == results[k].scene && $0.items == results[k].items && $0.workers == 1 }
            results[k].speedUp = one.map { $0.msPerStepMedian / max(results[k].msPerStepMedian, 1e-12) }
        }
        for k in results.indices where results[k].workers == 1 { results[k].speedUp = 1 }
        if json {
            for result in results { print(result.json) }
        } else if cases.count == 1 && repeats == 1 {
            print(machine.line)
            print(results[0].text)
        } else {
            print(machine.line)
            print(BenchTable(results).text, terminator: "")
        }
        if let plot {
            let file = try AtomicFile(plot)
            try file.write(BenchPlot(results: results, machine: machine, steps: steps, repeats: repeats).svg)
            try file.commit()
        }
        AtomicFile.reportWritten(quiet: quiet)
    }

    /// One run of one combination.
    private func measure(_ c: Case) throws -> BenchResult {
        let recipe = try DynamicsCLI.scene(named: c.scene)
        let configuration = try engine.configuration(base: DynamicsConfiguration(), workers: c.workers)
        if untilRest != nil, !configuration.restDetection { throw CLIError(.usage, "--until-rest needs rest detection (drop --no-rest)") }
        ResidentMemory.trim()
        let before = ResidentMemory.current
        // The run applies the scene's timeline before each step, inside the timed step as Box2D's benchmark
        // calls its step function (junkyard's pusher).
        let run = try recipe.makeRun(items: c.items, configuration: configuration, keepRestDetection: untilRest != nil)
        let world = run.world
        let top = TopItem(in: world)
        try run.step()  // untimed, as Box2D's benchmark does
        var settle: RestResult?
        if let untilRest {
            settle = try RestResult.settle(run, seconds: untilRest)
            guard settle?.restSeconds != nil else {
                throw CLIError(.software, "\(c.scene): \(world.awakeItemCount) of \(world.itemCount) items still awake after \(untilRest) s")
            }
        }
        var timer = StepTimer(capacity: steps)
        var solve: [Double] = [], partition: [Double] = [], broad: [Double] = [], narrow: [Double] = []
        var contact: [Double] = [], serial: [[Double]] = Array(repeating: [], count: 5), substeps = 0
        let cpu0 = StepTimer.processCPUSeconds()
        for _ in 0..<steps {
            try timer.measure { try run.step() }
            let p = world.lastStepProfile
            substeps += p.substeps
            solve.append(p.solveNanoseconds / 1e6)
            partition.append(p.partitionNanoseconds / 1e6)
            broad.append(p.broadphaseNanoseconds / 1e6)
            narrow.append(p.narrowphaseNanoseconds / 1e6)
            contact.append(p.contactSolveNanoseconds / 1e6)
            let parts = [p.stepSerialNanoseconds / 1e6, p.broadphaseSerialNanoseconds / 1e6,
                         p.narrowphaseSerialNanoseconds / 1e6, p.contactSolveSerialNanoseconds / 1e6, Double(p.jobs)]
            for (k, v) in parts.enumerated() { serial[k].append(v) }
        }
        let cpu = (StepTimer.processCPUSeconds() - cpu0) * 1000 / Double(steps)
        let resident = ResidentMemory.current, added = max(0, resident - before)
        var result = BenchResult(
            scene: recipe.name, shape: recipe.shape, items: world.itemCount, workers: configuration.workerCount,
            steps: steps, msPerStepMedian: timer.medianMilliseconds, msPerStepMean: timer.meanMilliseconds,
            cpuMsPerStep: cpu, stateHash: String(format: "%016llx", world.stateHash()),
            solveMsMedian: StepTimer.median(solve), partitionMsMedian: StepTimer.median(partition),
            broadphaseMsMedian: StepTimer.median(broad), narrowphaseMsMedian: StepTimer.median(narrow),
            contactSolveMsMedian: StepTimer.median(contact), contacts: world.contactCount,
            simd: world.simdPath, integrator: configuration.integrator.rawValue,
            substeps: configuration.substeps, substepsMean: Double(substeps) / Double(steps),
            adaptiveSubsteps: configuration.adaptiveSubsteps, contactFrequency: configuration.contactFrequency,
            solverIterations: configuration.solverIterations, awakeItems: world.awakeItemCount,
            topItemSink: top.sink(in: world), restSeconds: settle?.restSeconds,
            msPerStepAwakeMedian: settle?.msPerStepAwakeMedian, msPerStepMin: timer.medianMilliseconds,
            bytesPerItem: Double(added) / Double(max(world.itemCount, 1)), residentBytes: resident,
            peakResidentBytes: ResidentMemory.peak)
        result.setSerialParts(serial.map(StepTimer.median))
        return result
    }

    /// The runs of one combination as one result: medians of the runs' values, the smallest run median.
    static func combine(_ runs: [BenchResult], machine: MachineInfo) -> BenchResult {
        var r = runs[runs.count / 2]
        func median(_ f: (BenchResult) -> Double) -> Double { StepTimer.median(runs.map(f)) }
        r = BenchResult(
            scene: r.scene, shape: r.shape, items: r.items, workers: r.workers, steps: r.steps,
            msPerStepMedian: median(\.msPerStepMedian), msPerStepMean: median(\.msPerStepMean), cpuMsPerStep: median(\.cpuMsPerStep),
            stateHash: r.stateHash, solveMsMedian: median(\.solveMsMedian), partitionMsMedian: median(\.partitionMsMedian),
            broadphaseMsMedian: median(\.broadphaseMsMedian), narrowphaseMsMedian: median(\.narrowphaseMsMedian),
            contactSolveMsMedian: median(\.contactSolveMsMedian), contacts: r.contacts, simd: r.simd, integrator: r.integrator,
            substeps: r.substeps, substepsMean: r.substepsMean, adaptiveSubsteps: r.adaptiveSubsteps,
            contactFrequency: r.contactFrequency, solverIterations: r.solverIterations, awakeItems: r.awakeItems,
            topItemSink: r.topItemSink, restSeconds: r.restSeconds,
            msPerStepAwakeMedian: r.msPerStepAwakeMedian, repeats: runs.count,
            msPerStepMin: runs.map(\.msPerStepMedian).min()!, bytesPerItem: median(\.bytesPerItem),
            residentBytes: Int(median { Double($0.residentBytes) }), peakResidentBytes: runs.map(\.peakResidentBytes).max()!)
        r.setSerialParts([median(\.serialMsMedian), median(\.broadphaseSerialMsMedian), median(\.narrowphaseSerialMsMedian),
                          median(\.contactSolveSerialMsMedian), median(\.jobsPerStep)])
        r.cpuModel = machine.cpuModel
        r.cores = machine.cores
        r.version = machine.version
        r.commit = machine.commit
        r.blas = machine.blas
        return r
    }
}
