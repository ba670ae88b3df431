// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Wall-clock times of individual steps, with median and mean.
struct StepTimer {
    private(set) var milliseconds: [Double] = []

    init(capacity: Int) { milliseconds.reserveCapacity(capacity) }

    /// Continues the times of the steps already done (a checkpoint's).
    init(milliseconds: [Double], capacity: Int) {
        self.milliseconds = milliseconds
        self.milliseconds.reserveCapacity(capacity)
    }

    mutating func measure(_ body: () throws -> Void) rethrows {
        let start = ContinuousClock.now
        try body()
        let d = ContinuousClock.now - start
        milliseconds.append(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
    }

    var medianMilliseconds: Double { Self.median(milliseconds) }
    var meanMilliseconds: Double { milliseconds.isEmpty ? 0 : milliseconds.reduce(0, +) / Double(milliseconds.count) }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// CPU seconds used by this process (all threads).
    static func processCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// A one-line progress indicator on standard error, shown only when it is a terminal: steps done,
/// simulated time, steps per second and the time left.
final class Progress {
    private let total: Int
    private let stepsPerSecond: Double
    private let enabled: Bool
    private let start = ContinuousClock.now
    private var lastPrint = ContinuousClock.now

    init(total: Int, stepsPerSecond: Double = 60, enabled: Bool = true) {
        self.total = total
        self.stepsPerSecond = stepsPerSecond
        self.enabled = enabled && isatty(STDERR_FILENO) != 0
    }

    func update(_ done: Int) {
        guard enabled, ContinuousClock.now - lastPrint > .milliseconds(250) else { return }
        lastPrint = ContinuousClock.now
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = Double(done) / max(seconds, 1e-9)
        let left = Double(total - done) / max(rate, 1e-9)
        let line = String(format: "\rstep %d/%d  %.2f s simulated  %.1f steps/s  ETA %.0f s\u{1B}[K", done, total,
                          Double(done) / stepsPerSecond, rate, left)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
