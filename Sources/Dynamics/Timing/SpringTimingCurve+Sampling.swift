// SPDX-License-Identifier: Apache-2.0
import Foundation

extension SpringTimingCurve {
    /// Samples many curves at once: the progress of every curve at times 0, `interval`, 2·`interval`, …
    /// (`count` samples), as one row of `curves.count` values per time: the progress of curve c at time k ·
    /// `interval` is `result[k * curves.count + c]`, in Float.
    ///
    /// The kernel advances each curve's state (1 − progress and its rate) from sample to sample by the
    /// damped oscillator's exact transition matrix over `interval` (from the closed forms, in double
    /// precision), two multiply-add pairs per sample in Float, W curves per SIMD vector and blocks of curves
    /// on `workers` threads. Every SIMD level and worker count gives the same bits; over 60 samples the
    /// values agree with ``progress(at:)`` within 10⁻⁵.
    /// `swift package benchmark --target Springs` in `Benchmarks` times 10⁶ curves × 60 samples (the
    /// results are in `Benchmarks/results`). Throws for an interval that is not positive and finite, a
    /// negative count, or a worker count outside 1…64; curves out of range are refused by their initialisers.
    public static func sample(_ curves: [SpringTimingCurve], interval: TimeInterval, count: Int, workers: Int = 1,
                              simd: SIMDLevel = .automatic) throws(DynamicsError) -> [Float]
    {
        let total = try checkArguments(curves, interval: interval, count: count, workers: workers)
        var failure: DynamicsError?
        // Left uninitialised: the kernel writes every element, or nothing when it refuses the call.
        let out = [Float](unsafeUninitializedCapacity: total) { buffer, initialized in
            failure = KernelSprings.sample(curves, interval: interval, count: count, workers: workers, simd: simd, into: buffer)
            initialized = failure == nil ? total : 0
        }
        if let failure { throw failure }
        return out
    }

    /// The same samples as ``sample(_:interval:count:workers:simd:)``, written into `buffer`, which is
    /// resized to `curves.count * count` when it has another size. Sampling again into the same buffer
    /// (an animation's frames, a sweep's batches) skips the cost of new memory: the operating system maps
    /// and zeroes a fresh array's pages on first write, which for 10⁶ curves × 60 samples takes longer than
    /// the sampling itself. Throws as that function does, before `buffer` is touched.
    public static func sample(_ curves: [SpringTimingCurve], interval: TimeInterval, count: Int, into buffer: inout [Float],
                              workers: Int = 1, simd: SIMDLevel = .automatic) throws(DynamicsError)
    {
        let total = try checkArguments(curves, interval: interval, count: count, workers: workers)
        if buffer.count != total { buffer = [Float](repeating: 0, count: total) }
        let failure = buffer.withUnsafeMutableBufferPointer {
            KernelSprings.sample(curves, interval: interval, count: count, workers: workers, simd: simd, into: $0)
        }
        if let failure { throw failure }
    }

    /// Checks the arguments both forms share; returns the number of samples in all.
    private static func checkArguments(_ curves: [SpringTimingCurve], interval: TimeInterval, count: Int, workers: Int)
        throws(DynamicsError) -> Int
    {
        guard interval.isFinite, interval > 0, Float(interval) > 0 else {
            throw .invalidValue(field: "interval", value: interval, index: nil)
        }
        guard count >= 0, count <= Int(Int32.max) else { throw .invalidValue(field: "count", value: Double(count), index: nil) }
        guard (1...64).contains(workers) else { throw .invalidValue(field: "workers", value: Double(workers), index: nil) }
        let total = curves.count.multipliedReportingOverflow(by: count)
        guard !total.overflow, curves.count <= Int(Int32.max) else {
            throw .invalidValue(field: "curves.count", value: Double(curves.count), index: nil)
        }
        return total.partialValue
    }
}
