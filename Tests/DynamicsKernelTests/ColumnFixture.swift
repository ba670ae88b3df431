// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel

/// Caller-owned kernel columns filled with a reproducible mix of rows: plain, anchored, fixed-rotation,
/// damped, pushed off-centre and snapped. Used to compare every kernel path with the scalar reference.
final class ColumnFixture {
    let count: Int
    private(set) var columns: [UnsafeMutablePointer<Float>]
    let flags: UnsafeMutablePointer<UInt32>

    init(count: Int, seed: UInt64) {
        self.count = count
        let n = Int(dkColumnPublicCount.rawValue)
        columns = (0..<n).map { _ in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
            p.initialize(repeating: 0, count: count)
            return p
        }
        flags = .allocate(capacity: count)
        flags.initialize(repeating: 0, count: count)
        var rng = SplitMix(seed: seed)
        for i in 0..<count {
            func set(_ c: dkColumn, _ v: Float) { columns[Int(c.rawValue)][i] = v }
            set(dkColumnPositionX, rng.float(-1000, 1000))
            set(dkColumnPositionY, rng.float(-1000, 1000))
            set(dkColumnAngle, rng.float(-30, 30))  // several turns: exercises the snap's nearest-turn target
            set(dkColumnVelocityX, rng.float(-50, 50))
            set(dkColumnVelocityY, rng.float(-50, 50))
            set(dkColumnAngularVelocity, rng.float(-2, 2))
            let mass = rng.float(0.2, 4)
            let inertia = mass * rng.float(500, 3000)
            let kind = i % 7
            set(dkColumnMass, mass)
            set(dkColumnInertia, inertia)
            set(dkColumnInverseMass, kind == 1 ? 0 : 1 / mass)
            set(dkColumnInverseInertia, kind == 1 || kind == 2 ? 0 : 1 / inertia)
            if kind == 1 {
                set(dkColumnVelocityX, 0)
                set(dkColumnVelocityY, 0)
                set(dkColumnAngularVelocity, 0)
            }
            set(dkColumnGravityX, rng.float(-100, 100))
            set(dkColumnGravityY, 1000)
            set(dkColumnForceX, rng.float(-5, 5))
            set(dkColumnForceY, rng.float(-5, 5))
            if kind == 3 || kind == 5 {
                set(dkColumnTorqueCross, rng.float(-200, 200))
                set(dkColumnTorqueDot, rng.float(-200, 200))
            }
            set(dkColumnLinearDamping, kind == 4 ? rng.float(0, 5) : 0)
            set(dkColumnAngularDamping, kind == 4 ? rng.float(0, 5) : 0)
            if kind == 5 || kind == 6 {
                set(dkColumnSnapX, rng.float(-100, 100))
                set(dkColumnSnapY, rng.float(-100, 100))
                set(dkColumnSnapOmega, 2 * .pi * 2.5)
                set(dkColumnSnapZeta, rng.float(0.05, 1))
            }
            set(dkColumnSleepTime, rng.float(0, 0.6))
        }
    }

    deinit {
        for c in columns { c.deallocate() }
        flags.deallocate()
    }

    func copy() -> ColumnFixture {
        let other = ColumnFixture(count: count, seed: 0)
        for (dst, src) in zip(other.columns, columns) { dst.update(from: src, count: count) }
        other.flags.update(from: flags, count: count)
        return other
    }

    func column(_ c: dkColumn) -> [Float] { Array(UnsafeBufferPointer(start: columns[Int(c.rawValue)], count: count)) }

    /// Calls `body` with a dkColumnSet over these columns.
    func withSet<R>(_ body: (inout dkColumnSet) -> R) -> R {
        var set = dkColumnSet()
        set.flags = flags
        set.count = Int32(count)
        withUnsafeMutableBytes(of: &set.column) { raw in
            let slots = raw.bindMemory(to: UnsafeMutablePointer<Float>?.self)
            for (k, c) in columns.enumerated() { slots[k] = c }
        }
        return body(&set)
    }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func float(_ lo: Float, _ hi: Float) -> Float {
        lo + (hi - lo) * Float(next() >> 40) / Float(1 << 24)
    }
}

/// The SIMD levels this CPU can run, lowest first (always including scalar).
func supportedLevels() -> [dkSimdLevel] {
    let best = dkCpuBestSimdLevel()
    return [dkSimdScalar, dkSimdSSE2, dkSimdNEON, dkSimdAVX2, dkSimdAVX512].filter {
        $0.rawValue <= best.rawValue && dkKernelsLevel($0) == $0
    }
}

/// The level a limit resolves to on this CPU (a limit the architecture lacks falls to a lower one).
func dkKernelsLevel(_ limit: dkSimdLevel) -> dkSimdLevel {
    var def = dkDefaultWorldDef()
    def.simdLimit = limit
    let world = dkWorld_Create(&def, nil)!
    defer { dkWorld_Destroy(world) }
    return dkWorld_SimdLevel(world)
}
