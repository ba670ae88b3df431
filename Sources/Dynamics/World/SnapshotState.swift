// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What a ``DynamicWorld`` keeps beside its kernel world, stored in its snapshots (as JSON, beside the
/// kernel's bytes): the configuration and the clock.
struct SnapshotState: Codable {
    var stepsPerSecond: Double
    var substeps: Int
    var adaptiveSubsteps: Bool
    var seed: UInt64
    var simd: String
    var integrator: String
    var restDetection: Bool
    var contactFrequency: Double
    var solverIterations: Int
    var elapsedTime: Double
    var stepCount: Int
    var pendingTime: Double
    /// What the program that took the snapshot stored beside it (a scene run's own state), if anything.
    var userData: Data?

    init(_ world: DynamicWorld, userData: Data?) {
        let c = world.configuration
        stepsPerSecond = c.stepsPerSecond
        substeps = c.substeps
        adaptiveSubsteps = c.adaptiveSubsteps
        seed = c.seed
        simd = c.simd.rawValue
        integrator = c.integrator.rawValue
        restDetection = c.restDetection
        contactFrequency = c.contactFrequency
        solverIterations = c.solverIterations
        elapsedTime = world.elapsedTime
        stepCount = world.stepCount
        pendingTime = world.pendingStepTime
        self.userData = userData
    }

    /// The configuration written, with `workerCount` workers (a snapshot keeps none: results do not depend on it).
    func configuration(workerCount: Int) throws(DynamicsError) -> DynamicsConfiguration {
        var c = DynamicsConfiguration()
        c.stepsPerSecond = stepsPerSecond
        c.substeps = substeps
        c.adaptiveSubsteps = adaptiveSubsteps
        c.seed = seed
        guard let simd = SIMDLevel(rawValue: simd) else { throw .invalidSnapshot(field: "configuration.simd", value: 0) }
        guard let integrator = Integrator(rawValue: integrator) else {
            throw .invalidSnapshot(field: "configuration.integrator", value: 0)
        }
        c.simd = simd
        c.integrator = integrator
        c.restDetection = restDetection
        c.contactFrequency = contactFrequency
        c.solverIterations = solverIterations
        c.workerCount = workerCount
        do { try c.validate() } catch {
            if case let .invalidValue(field, value, _) = error {
                throw .invalidSnapshot(field: "configuration.\(field)", value: value)
            }
            throw error
        }
        guard elapsedTime.isFinite, elapsedTime >= 0 else { throw .invalidSnapshot(field: "elapsedTime", value: elapsedTime) }
        guard stepCount >= 0 else { throw .invalidSnapshot(field: "stepCount", value: Double(stepCount)) }
        guard pendingTime.isFinite, pendingTime >= 0 else { throw .invalidSnapshot(field: "pendingTime", value: pendingTime) }
        return c
    }
}
