// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel

/// What this build of the package is: its version, the commit it was built from, and the SIMD paths its
/// kernel carries (`dynamics --version` prints them).
public enum DynamicsBuild {
    /// The package's version (semantic versioning; `-dev` between releases).
    public static let version = "0.5.0-dev"

    /// The commit the package was built from (12 hex digits, `-dirty` with uncommitted changes), or
    /// "unknown" when the build was not told (`make dist` tells it through `DYNAMICS_COMMIT`).
    public static var commit: String { String(cString: dkBuildCommit()) }

    /// The SIMD paths compiled in, lowest first (`scalar`, `sse2`, `avx2`, `avx512` on x86-64; `scalar`,
    /// `neon` on arm64). The best one this CPU supports is ``DynamicWorld/bestSIMDPath``.
    public static var simdPaths: [String] {
        var levels = [dkSimdLevel](repeating: dkSimdScalar, count: 8)
        let n = Int(dkBuildSimdLevels(&levels, Int32(levels.count)))
        return levels.prefix(n).map { String(cString: dkSimdLevelName($0)) }
    }
}
