// SPDX-License-Identifier: Apache-2.0
// Spring timing curves in bulk: 10⁶ curves × 60 samples (one second at 60 Hz) per call of
// SpringTimingCurve.sample, at the widest SIMD level and on the scalar path, at 1 and 2 workers, into a new
// array and into a reused one (a new array's 240 MB are mapped and zeroed by the OS on first write); against
// two references measured in the same run: the closed form evaluated curve by curve
// (SpringTimingCurve.progress(at:), 10⁵ curves × 60 samples, i.e. a tenth of the work), and a STREAM triad
// over the bytes the call must write at least (10⁶ × 60 Floats, 240 MB).
import Benchmark
import Dynamics
import Foundation
import TriadSupport

let curveCount = 1_000_000, sampleCount = 60, interval = 1.0 / 60

/// A mix of under-, critically and overdamped curves, made once.
final class LazyCurves: @unchecked Sendable {
    private var built: [SpringTimingCurve]?
    private let count: Int
    init(count: Int) { self.count = count }
    var curves: [SpringTimingCurve] {
        if let built { return built }
        let made = (0..<count).map { k -> SpringTimingCurve in
            let u = Double((k &* 2_654_435_761) % 1000) / 1000
            return SpringTimingCurve(naturalFrequency: 5 + 40 * u, dampingRatio: [0.2 + 0.7 * u, 1, 1.5 + u][k % 3],
                                     initialVelocity: 4 * u - 2)
        }
        built = made
        return made
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 20
    )
    let million = LazyCurves(count: curveCount), tenth = LazyCurves(count: curveCount / 10)
    for (simd, name) in [(SIMDLevel.automatic, "simd"), (.scalar, "scalar")] {
        for workers in [1, 2] {
            Benchmark("springs sample 1e6x60 \(name) \(workers)w") { benchmark in
                let curves = million.curves
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    blackHole(try! SpringTimingCurve.sample(curves, interval: interval, count: sampleCount, workers: workers,
                                                            simd: simd))
                }
                benchmark.stopMeasurement()
            }
        }
    }
    for workers in [1, 2] {
        Benchmark("springs sample into a reused buffer 1e6x60 simd \(workers)w") { benchmark in
            let curves = million.curves
            var buffer: [Float] = []
            try! SpringTimingCurve.sample(curves, interval: interval, count: sampleCount, into: &buffer, workers: workers)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try! SpringTimingCurve.sample(curves, interval: interval, count: sampleCount, into: &buffer, workers: workers)
                blackHole(buffer[0])
            }
            benchmark.stopMeasurement()
        }
    }
    Benchmark("springs closed form 1e5x60 1w") { benchmark in
        let curves = tenth.curves
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var sum = 0.0
            for curve in curves { for k in 0..<sampleCount { sum += curve.progress(at: Double(k) * interval) } }
            blackHole(sum)
        }
        benchmark.stopMeasurement()
    }
    let triad = LazyTriad(bytes: curveCount * sampleCount * MemoryLayout<Float>.size)
    Benchmark("triad 240 MB") { benchmark in
        _ = triad.arrays
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(triad.run()) }
        benchmark.stopMeasurement()
    }
}
