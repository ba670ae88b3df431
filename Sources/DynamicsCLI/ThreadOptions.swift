// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Dynamics
import Foundation

/// How a run uses the machine: worker threads and the highest SIMD path. Neither changes a result, so
/// `simulate`, `bench` and `sweep` all take them.
struct ThreadOptions: ParsableArguments {
    @Option(parsing: .unconditional,
            help: "Worker threads, 1…64 (default: active processors; `bench` takes a comma-separated list). Results do not depend on it.")
    var workers: String?

    @Option(help: ArgumentHelp("Highest SIMD path: automatic, scalar, sse2, neon, avx2, avx512 (default: $DYNAMICS_SIMD or automatic).",
                               valueName: "path"),
            completion: .list(["automatic", "scalar", "sse2", "neon", "avx2", "avx512"]))
    var simd: String?

    /// The --workers values (nil when not given).
    func workerCounts() throws -> [Int]? {
        guard let workers else { return nil }
        let counts = workers.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0.map { (1...64).contains($0) } ?? false }) else {
            throw ValidationError("--workers must be 1…64 (bench: a comma-separated list), got '\(workers)'")
        }
        return counts.map { $0! }
    }

    /// `base` with the worker count and SIMD path given, validated; `workers` replaces the --workers list
    /// (which must then hold one value).
    func configuration(base: DynamicsConfiguration, workers: Int? = nil) throws -> DynamicsConfiguration {
        try Self.validated(applied(to: base, workers: workers))
    }

    /// `base` with the worker count and SIMD path given, not yet validated.
    func applied(to base: DynamicsConfiguration, workers: Int? = nil) throws -> DynamicsConfiguration {
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
        return c
    }

    /// `configuration` when it is in range; else a usage error naming the field.
    static func validated(_ configuration: DynamicsConfiguration) throws -> DynamicsConfiguration {
        do {
            try configuration.validate()
        } catch {
            throw ValidationError(error.description)
        }
        return configuration
    }
}
