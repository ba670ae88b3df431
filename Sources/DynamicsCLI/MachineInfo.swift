// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// What a benchmark ran on, printed with every `dynamics bench` run: the CPU model and core count, the SIMD
/// path, the BLAS library and the package's version and commit.
struct MachineInfo: Encodable {
    let cpuModel: String
    let cores: Int
    let simd: String
    let blas: String
    let version: String
    let commit: String

    static var current: MachineInfo {
        let cpuinfo = String(smallFile: "/proc/cpuinfo") ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") || $0.hasPrefix("Model") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) }
        return MachineInfo(cpuModel: model ?? "unknown CPU", cores: ProcessInfo.processInfo.activeProcessorCount,
                           simd: DynamicWorld.bestSIMDPath, blas: DynamicWorld.blasLibrary, version: DynamicsBuild.version,
                           commit: DynamicsBuild.commit)
    }

    /// One line: "AMD EPYC, 2 cores, avx512, BLAS …, dynamics 0.5.0-dev (commit …)".
    var line: String { "\(cpuModel), \(cores) cores, \(simd), BLAS \(blas), dynamics \(version) (commit \(commit))" }
}
