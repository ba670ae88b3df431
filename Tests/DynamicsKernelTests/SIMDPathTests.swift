// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel
import Testing

/// Every wide path computes exactly the scalar reference's bits: no FP contraction, same operation order.
@Suite struct SIMDPathTests {
    static let stateColumns = [dkColumnPositionX, dkColumnPositionY, dkColumnAngle, dkColumnVelocityX,
                               dkColumnVelocityY, dkColumnAngularVelocity]

    @Test("the CPU offers at least one wide path")
    func wideLevelExists() {
        #expect(supportedLevels().count >= 2, "levels: \(supportedLevels())")
    }

    @Test("fused integration: every SIMD level equals the scalar reference bit for bit",
          arguments: [1, 15, 16, 17, 1000, 4099])
    func fusedEqualsScalar(count: Int) {
        let reference = ColumnFixture(count: count, seed: 42)
        reference.withSet { set in _ = dkIntegrateColumns(&set, dkIntegratorScalar, dkSimdScalar, 1 / 60, 4, nil) }
        for level in supportedLevels() {
            let wide = ColumnFixture(count: count, seed: 42)
            wide.withSet { set in _ = dkIntegrateColumns(&set, dkIntegratorFused, level, 1 / 60, 4, nil) }
            for c in Self.stateColumns {
                let (a, b) = (reference.column(c), wide.column(c))
                let firstDiff = zip(a, b).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }
                #expect(firstDiff == nil, "level \(level.rawValue) column \(c.rawValue) row \(firstDiff?.offset ?? -1)")
            }
        }
    }

    @Test("the integration actually changes state (the comparison is not vacuous)")
    func integrationMoves() {
        let before = ColumnFixture(count: 64, seed: 7)
        let after = before.copy()
        after.withSet { set in _ = dkIntegrateColumns(&set, dkIntegratorFused, dkSimdAVX512, 1 / 60, 4, nil) }
        let moved = zip(before.column(dkColumnPositionY), after.column(dkColumnPositionY)).filter { $0 != $1 }.count
        #expect(moved > 50)
    }

    @Test("BLAS integration path equals the scalar reference", arguments: [5, 333, 4096])
    func blasEqualsScalar(count: Int) {
        let reference = ColumnFixture(count: count, seed: 9)
        reference.withSet { set in _ = dkIntegrateColumns(&set, dkIntegratorScalar, dkSimdScalar, 1 / 60, 4, nil) }
        for level in supportedLevels() {
            let blas = ColumnFixture(count: count, seed: 9)
            blas.withSet { set in _ = dkIntegrateColumns(&set, dkIntegratorBLAS, level, 1 / 60, 4, nil) }
            for c in Self.stateColumns {
                for (x, y) in zip(reference.column(c), blas.column(c)) {
                    #expect(abs(x - y) <= 1e-5 * max(1, abs(x)), "level \(level.rawValue) column \(c.rawValue)")
                }
            }
        }
    }

    @Test("rest detection: every SIMD level equals the scalar reference", arguments: [3, 64, 1001])
    func restEqualsScalar(count: Int) {
        let reference = ColumnFixture(count: count, seed: 3)
        // Slow half the rows so that both branches of the law are exercised.
        for i in stride(from: 0, to: count, by: 2) {
            reference.columns[Int(dkColumnVelocityX.rawValue)][i] = 1
            reference.columns[Int(dkColumnVelocityY.rawValue)][i] = -2
            reference.columns[Int(dkColumnAngularVelocity.rawValue)][i] = 0.01
            reference.columns[Int(dkColumnSleepTime.rawValue)][i] = 0.49  // reaches 0.5 s this step
        }
        let restSpeed: Float = 5, restAngular: Float = 2 * .pi / 180, restTime: Float = 0.5
        let template = reference.copy()
        let expected = reference.withSet { dkDetectRestColumns(&$0, dkSimdScalar, 1 / 60, restSpeed, restAngular, restTime) }
        #expect(expected > 0)
        if count > 3 { #expect(expected < count) }
        for level in supportedLevels() {
            let wide = template.copy()
            let got = wide.withSet { dkDetectRestColumns(&$0, level, 1 / 60, restSpeed, restAngular, restTime) }
            #expect(got == expected)
            #expect(wide.column(dkColumnSleepTime).map(\.bitPattern) == reference.column(dkColumnSleepTime).map(\.bitPattern))
        }
    }

    @Test("pose packing: every SIMD level equals the scalar reference")
    func packEqualsScalar() {
        let fixture = ColumnFixture(count: 77, seed: 5)
        let reference = fixture.withSet { set -> [Float] in
            var out = [Float](repeating: .nan, count: 3 * 77)
            out.withUnsafeMutableBufferPointer { dkPackPosesColumns(&set, dkSimdScalar, $0.baseAddress) }
            return out
        }
        #expect(reference[3 * 10 + 1] == fixture.column(dkColumnPositionY)[10])
        for level in supportedLevels() {
            let packed = fixture.withSet { set -> [Float] in
                var out = [Float](repeating: .nan, count: 3 * 77)
                out.withUnsafeMutableBufferPointer { dkPackPosesColumns(&set, level, $0.baseAddress) }
                return out
            }
            #expect(packed.map(\.bitPattern) == reference.map(\.bitPattern))
        }
    }
}
