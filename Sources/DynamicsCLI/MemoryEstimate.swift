// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation

/// Refuses a run that would not fit in this machine's memory, before building anything.
enum MemoryEstimate {
    /// Resident bytes per item measured for the default and pile scenes (20 000 and 200 000 items:
    /// about 1 000 bytes per item), rounded up, plus the process's own.
    static let bytesPerItem = 1_200.0, baseBytes = 64.0 * 1_048_576

    static func check(items: Int) throws {
        let need = baseBytes + bytesPerItem * Double(items)
        let have = Double(ProcessInfo.processInfo.physicalMemory)
        if need > 0.8 * have {
            throw ValidationError(String(format: "%d items need about %.1f GiB, more than 80 %% of this machine's %.1f GiB",
                                         items, need / 1_073_741_824, have / 1_073_741_824))
        }
    }
}
