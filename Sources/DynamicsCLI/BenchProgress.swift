// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The sweep's progress on standard error when it is a terminal.
final class BenchProgress {
    private let total: Int
    private var done = 0
    private let enabled: Bool

    /// Progress over `total` runs, shown when `enabled` and standard error is a terminal.
    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled && isatty(STDERR_FILENO) != 0
    }

    func show(_ c: Bench.Case, repeat r: Int, of repeats: Int) {
        done += 1
        guard enabled, total > 1 else { return }
        let items = c.items.map { "\($0) items" } ?? "default items"
        let workers = c.workers.map { "\($0) worker(s)" } ?? "default workers"
        FileHandle.standardError.write(Data("\rrun \(done)/\(total): \(c.scene), \(items), \(workers), repeat \(r + 1)/\(repeats)\u{1B}[K".utf8))
    }

    func finish() {
        if enabled, total > 1 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
