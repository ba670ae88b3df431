// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation

/// Refuses a run that would not fit in this machine's memory, before building anything.
enum MemoryEstimate {
    /// Peak resident bytes per item, measured with `dynamics bench --scene S --items N --steps 10 --workers 2`
    /// (`/usr/bin/time` max RSS; Benchmarks/results/x86_64-avx512-epyc-2core/memory.md, 2026-12-06) and rounded
    /// up: integration 552 at 10⁷ items, fields 623 at 10⁶, joint_grid 1 742 at 10⁶ (its joints and chains),
    /// pyramid 3 202 at 10⁶ (three contacts per box, each kept with its cached manifold, and the step's
    /// reserved scratch). Scenes with collisions and scene files take the pyramid's figure, so a pile allowed
    /// to settle into a stack fits too.
    static func bytesPerItem(scene: String?) -> Double {
        switch scene {
        case "integration", "fields": 700
        case "joint_grid", "chain", "bridge": 1_900
        default: 3_500
        }
    }

    static let baseBytes = 64.0 * 1_048_576

    static func check(items: Int, scene: String? = nil) throws {
        let need = baseBytes + bytesPerItem(scene: scene) * Double(items)
        let have = Double(ProcessInfo.processInfo.physicalMemory)
        if need > 0.8 * have {
            throw ValidationError(String(format: "%d items need about %.1f GiB, more than 80 %% of this machine's %.1f GiB",
                                         items, need / 1_073_741_824, have / 1_073_741_824))
        }
    }
}
