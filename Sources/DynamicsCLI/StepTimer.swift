import Foundation

/// Wall-clock times of individual steps, with median and mean.
struct StepTimer {
    private(set) var milliseconds: [Double] = []

    init(capacity: Int) { milliseconds.reserveCapacity(capacity) }

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

/// A one-line progress indicator on standard error, shown only when it is a terminal.
final class Progress {
    private let total: Int
    private let enabled = isatty(STDERR_FILENO) != 0
    private var lastPrint = ContinuousClock.now

    init(total: Int) { self.total = total }

    func update(_ done: Int) {
        guard enabled, ContinuousClock.now - lastPrint > .milliseconds(250) else { return }
        lastPrint = ContinuousClock.now
        FileHandle.standardError.write(Data("\rstep \(done)/\(total)".utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
