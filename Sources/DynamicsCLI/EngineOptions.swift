// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Dynamics
import Foundation

/// Options of `simulate` and `bench`: the threads, and the solver settings that change results. Given ones
/// override a scene file's configuration. (`sweep` takes only the threads: its results come from the
/// scene, so a solver setting belongs there, as a fixed change or a parameter.)
struct EngineOptions: ParsableArguments {
    @OptionGroup var threads: ThreadOptions

    @Option(help: "Integrator: fused, blas or scalar.", completion: .list(["fused", "blas", "scalar"]))
    var integrator: String = "fused"

    @Option(parsing: .unconditional, help: "Solver substeps per step, 1…64 (default: the file's, or 4).")
    var substeps: Int?

    @Flag(help: "Keep the substeps fixed: no more substeps while a chain of rigid attachments turns fast.")
    var fixedSubsteps = false

    @Option(parsing: .unconditional, help: "Contact stiffness in Hz (default: the file's, or 30; at most a quarter of the substep rate is used).")
    var contactFrequency: Double?

    @Option(parsing: .unconditional, help: "Solver passes per substep, 1…8 (default: the file's, or 1).")
    var solverIterations: Int?

    @Flag(help: "Turn rest detection off (every item is stepped every step).")
    var noRest = false

    /// The --workers values (nil when not given).
    func workerCounts() throws -> [Int]? { try threads.workerCounts() }

    /// The default configuration with the given options.
    func configuration() throws -> DynamicsConfiguration { try configuration(base: DynamicsConfiguration()) }

    /// `base` with the given options applied; `workers` replaces the --workers list (which must then hold
    /// one value).
    func configuration(base: DynamicsConfiguration, workers: Int? = nil) throws -> DynamicsConfiguration {
        var c = try threads.applied(to: base, workers: workers)
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
        if fixedSubsteps { c.adaptiveSubsteps = false }
        return try ThreadOptions.validated(c)
    }
}
