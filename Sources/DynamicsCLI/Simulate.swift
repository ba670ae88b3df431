import ArgumentParser
import Dynamics
import DynamicsScenes
import Foundation

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scene for a fixed simulated time and print a summary.",
        discussion: "Without SCENE, runs the built-in default scene (10 000 items for 10 simulated seconds)."
    )

    @Argument(help: "A built-in scene name (see `dynamics scenes`).")
    var scene: String = "default"

    @Option(help: "Number of items (default: the scene's).")
    var items: Int?

    @Option(help: "Simulated seconds (default: the scene's).")
    var seconds: Double?

    @OptionGroup var engine: EngineOptions

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    func run() throws {
        let recipe = try DynamicsCLI.scene(named: scene)
        let configuration = try engine.configuration()
        let duration = seconds ?? recipe.defaultSeconds
        guard duration.isFinite, duration > 0 else { throw ValidationError("--seconds must be > 0, got \(duration)") }
        let world = try recipe.makeWorld(items: items, configuration: configuration)
        let top = TopItem(in: world)
        let steps = Int((duration * configuration.stepsPerSecond).rounded())
        var timer = StepTimer(capacity: steps)
        let progress = Progress(total: steps)
        for k in 0..<steps {
            try timer.measure { try world.step(count: 1) }
            progress.update(k + 1)
        }
        progress.finish()
        let summary = SimulationSummary(
            scene: recipe.name, items: world.itemCount, awakeItems: world.awakeItemCount, steps: steps,
            simulatedSeconds: world.elapsedTime, msPerStepMedian: timer.medianMilliseconds,
            stepsPerSecond: 1000 / max(timer.meanMilliseconds, 1e-9), kineticEnergy: world.kineticEnergy,
            simd: world.simdPath, integrator: configuration.integrator.rawValue, workers: configuration.workerCount,
            blas: DynamicWorld.blasLibrary, stateHash: String(format: "%016llx", world.stateHash()),
            topItemSink: top.sink(in: world))
        print(json ? summary.json : summary.text)
    }
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

    var json: String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
