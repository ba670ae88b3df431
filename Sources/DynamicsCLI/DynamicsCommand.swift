// SPDX-License-Identifier: Apache-2.0
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
            Runs built-in scenes and scene files (JSON or YAML, format dynamics-scene/1) headless, writes \
            trajectories, and reports timing. Units: points, seconds, radians; gravity \
            magnitude 1 is 1000 pt/s². The environment variable DYNAMICS_SIMD (scalar, sse2, avx2, avx512, \
            neon) caps the SIMD path when --simd is not given.
            """,
        version: "dynamics \(DynamicsBuild.version) (commit \(DynamicsBuild.commit); SIMD paths \(DynamicsBuild.simdPaths.joined(separator: ", ")), "
            + "this CPU \(DynamicWorld.bestSIMDPath); BLAS \(DynamicWorld.blasLibrary))",
        subcommands: [Simulate.self, Validate.self, Schema.self, Bench.self, Scenes.self, Spring.self, SweepCommand.self]
    )
}

/// Options shared by `simulate` and `bench`. Given ones override a scene file's configuration.
struct EngineOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Worker threads, 1…64 (default: active processors; `bench` takes a comma-separated list). Results do not depend on it.")
    var workers: String?

    /// The --workers values (nil when not given).
    func workerCounts() throws -> [Int]? {
        guard let workers else { return nil }
        let counts = workers.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0.map { (1...64).contains($0) } ?? false }) else {
            throw ValidationError("--workers must be 1…64 (bench: a comma-separated list), got '\(workers)'")
        }
        return counts.map { $0! }
    }

    @Option(help: "Highest SIMD path: automatic, scalar, sse2, neon, avx2, avx512 (default: $DYNAMICS_SIMD or automatic).")
    var simd: String?

    @Option(help: "Integrator: fused, blas or scalar.")
    var integrator: String = "fused"

    @Option(parsing: .unconditional, help: "Solver substeps per step, 1…64 (default 4).")
    var substeps: Int?

    @Option(parsing: .unconditional, help: "Contact stiffness in Hz (default 30; at most a quarter of the substep rate is used).")
    var contactFrequency: Double?

    @Option(parsing: .unconditional, help: "Solver passes per substep, 1…8 (default 1).")
    var solverIterations: Int?

    @Flag(help: "Turn rest detection off (every item is stepped every step).")
    var noRest = false

    /// The default configuration with the given options.
    func configuration() throws -> DynamicsConfiguration { try configuration(base: DynamicsConfiguration()) }

    /// `base` with the given options applied; `workers` replaces the --workers list (which must then hold
    /// one value).
    func configuration(base: DynamicsConfiguration, workers: Int? = nil) throws -> DynamicsConfiguration {
        var c = base
        if let workers {
            c.workerCount = workers
        } else if let counts = try workerCounts() {
            guard counts.count == 1 else { throw ValidationError("--workers takes one value here, got '\(self.workers ?? "")'") }
            c.workerCount = counts[0]
        }
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
        if let substeps {
            guard (1...64).contains(substeps) else { throw ValidationError("--substeps must be 1…64, got \(substeps)") }
            c.substeps = substeps
        }
        if let contactFrequency {
            guard contactFrequency.isFinite, contactFrequency > 0, contactFrequency <= 1e6 else {
                throw ValidationError("--contact-frequency must be > 0 and ≤ 1000000 Hz, got \(contactFrequency)")
            }
            c.contactFrequency = contactFrequency
        }
        if let solverIterations {
            guard (1...8).contains(solverIterations) else {
                throw ValidationError("--solver-iterations must be 1…8, got \(solverIterations)")
            }
            c.solverIterations = solverIterations
        }
        if noRest { c.restDetection = false }
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
