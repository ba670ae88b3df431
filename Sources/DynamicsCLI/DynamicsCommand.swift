import ArgumentParser
import Dynamics
import DynamicsScenes
import Foundation

@main
struct DynamicsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynamics",
        abstract: "Batch rigid-body dynamics with UIKit Dynamics semantics.",
        discussion: """
            Runs built-in scenes headless and reports timing. Units: points, seconds, radians; gravity \
            magnitude 1 is 1000 pt/s². The environment variable DYNAMICS_SIMD (scalar, sse2, avx2, avx512, \
            neon) caps the SIMD path when --simd is not given.
            """,
        subcommands: [Simulate.self, Bench.self, Scenes.self]
    )
}

/// Options shared by `simulate` and `bench`.
struct EngineOptions: ParsableArguments {
    @Option(help: "Worker threads (default: active processors). Results do not depend on it.")
    var workers: Int?

    @Option(help: "Highest SIMD path: automatic, scalar, sse2, neon, avx2, avx512 (default: $DYNAMICS_SIMD or automatic).")
    var simd: String?

    @Option(help: "Integrator: fused, blas or scalar.")
    var integrator: String = "fused"

    @Option(help: "Solver substeps per step.")
    var substeps: Int = 4

    @Option(help: "Contact stiffness in Hz (at most a quarter of the substep rate is used).")
    var contactFrequency: Double = 30

    @Option(help: "Solver passes per substep, 1…8.")
    var solverIterations: Int = 1

    @Flag(help: "Turn rest detection off (every item is stepped every step).")
    var noRest = false

    func configuration() throws -> DynamicsConfiguration {
        var c = DynamicsConfiguration()
        if let workers { c.workerCount = workers }
        if let name = simd ?? ProcessInfo.processInfo.environment["DYNAMICS_SIMD"] {
            guard let level = SIMDLevel(name: name) else {
                throw ValidationError("unknown SIMD path '\(name)' (scalar, sse2, neon, avx2, avx512, automatic)")
            }
            c.simd = level
        }
        guard let integrator = Integrator(rawValue: integrator) else {
            throw ValidationError("unknown integrator '\(integrator)' (fused, blas, scalar)")
        }
        c.integrator = integrator
        c.substeps = substeps
        c.contactFrequency = contactFrequency
        c.solverIterations = solverIterations
        c.restDetection = !noRest
        do {
            try c.validate()
        } catch {
            throw ValidationError(error.description)
        }
        return c
    }
}

func scene(named name: String) throws -> Scene {
    guard let scene = Scene.named(name) else {
        let names = Scene.builtIn.map(\.name).joined(separator: ", ")
        throw ValidationError("unknown scene '\(name)' (built-in scenes: \(names))")
    }
    return scene
}
