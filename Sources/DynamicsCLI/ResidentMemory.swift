// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The process's resident memory, for `dynamics bench`'s bytes per item: the current resident set from
/// /proc/self/statm, the peak from getrusage, and glibc's malloc_trim (looked up at run time) to return
/// freed heap pages before a baseline is taken.
enum ResidentMemory {
    /// Bytes resident now (0 where /proc is missing).
    static var current: Int {
        guard let text = String(smallFile: "/proc/self/statm") else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The most bytes ever resident in this process.
    static var peak: Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024  // Linux reports KiB
    }

    /// Returns free heap pages to the system (glibc's malloc_trim, when the C library has it).
    static func trim() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
