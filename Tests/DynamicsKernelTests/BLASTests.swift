// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel
import Testing

/// Each BLAS call the kernel makes agrees with its naive scalar loop.
@Suite struct BLASTests {
    static func data(_ n: Int, _ seed: UInt64) -> [Float] {
        var rng = SplitMix(seed: seed)
        return (0..<n).map { _ in rng.float(-100, 100) }
    }

    @Test("saxpy equals y + a·x", arguments: [1, 7, 1000, 100_003])
    func axpy(n: Int) {
        let x = Self.data(n, 1)
        var y1 = Self.data(n, 2), y2 = y1
        x.withUnsafeBufferPointer { xs in
            y1.withUnsafeMutableBufferPointer { dkBlasAxpy(Int32(n), 0.25, xs.baseAddress, $0.baseAddress, false) }
            y2.withUnsafeMutableBufferPointer { dkBlasAxpy(Int32(n), 0.25, xs.baseAddress, $0.baseAddress, true) }
        }
        for (a, b) in zip(y1, y2) { #expect(abs(a - b) <= 1e-5 * max(1, abs(b))) }
        #expect(y2[0] == Self.data(n, 2)[0] + 0.25 * x[0])
    }

    @Test("dsdot equals the double-precision dot product", arguments: [1, 999, 250_000])
    func dot(n: Int) {
        let x = Self.data(n, 3), y = Self.data(n, 4)
        let (blas, reference) = x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in
                (dkBlasDot(Int32(n), xs.baseAddress, ys.baseAddress, false),
                 dkBlasDot(Int32(n), xs.baseAddress, ys.baseAddress, true))
            }
        }
        let naive = zip(x, y).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
        #expect(abs(blas - reference) <= 1e-9 * max(1, abs(reference)))
        #expect(abs(reference - naive) <= 1e-12 * max(1, abs(naive)))
    }

    @Test("isamax finds the first largest |x|", arguments: [1, 10, 54_321])
    func maxAbs(n: Int) {
        var x = Self.data(n, 5)
        x[n / 2] = -1000
        if n > 3 { x[n - 1] = 1000 }  // a tie later in the array: the first one wins
        let (blas, reference) = x.withUnsafeBufferPointer {
            (dkBlasMaxAbsIndex(Int32(n), $0.baseAddress, false), dkBlasMaxAbsIndex(Int32(n), $0.baseAddress, true))
        }
        #expect(blas == reference)
        #expect(Int(reference) == n / 2)
    }

    @Test("the BLAS library in use is a shared object on disk")
    func libraryPath() {
        let path = String(cString: dkBlasLibraryPath())
        #expect(path.contains("blas"), "got \(path)")
    }
}
