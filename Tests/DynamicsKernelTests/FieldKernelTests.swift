// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel
import Foundation
import Testing

/// Probe states: positions within ±2 000 pt, velocities within ±500 pt/s, masses 0.25…4, charges ±2.
private struct Probes {
    var x: [Float] = [], y: [Float] = [], vx: [Float] = [], vy: [Float] = [], inverseMass: [Float] = [],
        charge: [Float] = []
    init(count: Int, seed: UInt64) {
        var state = seed
        func unit() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        for _ in 0..<count {
            x.append(4000 * unit() - 2000)
            y.append(4000 * unit() - 2000)
            vx.append(1000 * unit() - 500)
            vy.append(1000 * unit() - 500)
            inverseMass.append(1 / (0.25 + 3.75 * unit()))
            charge.append(4 * unit() - 2)
        }
    }

    /// The field's acceleration at every probe (for velocity fields: the velocity it sets).
    func evaluate(_ def: dkFieldDef, seed: UInt64 = 1, t: Double = 0, level: dkSimdLevel = dkSimdScalar)
        -> (ax: [Float], ay: [Float])
    {
        var def = def
        var ax = [Float](repeating: 0, count: x.count), ay = ax
        let result = dkFieldAccelerations(&def, seed, 0, t, x, y, vx, vy, inverseMass, charge, Int32(x.count), level,
                                          &ax, &ay, nil)
        precondition(result == dkResultOK)
        return (ax, ay)
    }
}

private let allKinds = (0..<Int(dkFieldKindCount.rawValue)).map { dkFieldKind(UInt32($0)) }

private func definition(_ kind: dkFieldKind, falloff: Float = 0) -> dkFieldDef {
    var d = dkDefaultFieldDef(kind)
    (d.positionX, d.positionY) = (37, -12)
    d.strength = 0.75
    d.falloff = falloff
    d.minimumRadius = 20
    (d.directionX, d.directionY) = (0.6, -0.8)
    return d
}

@Suite struct FieldKernelTests {
    @Test("every field kind and falloff: every SIMD level equals the width-1 reference bit for bit",
          arguments: [0, 1, 2, 1.5] as [Float])
    func wideEqualsScalar(falloff: Float) {
        let probes = Probes(count: 1003, seed: 5)
        for kind in allKinds {
            let def = definition(kind, falloff: falloff)
            let reference = probes.evaluate(def, t: 2.5)
            #expect(reference.ax.contains { $0 != 0 }, "kind \(kind.rawValue) gives no force")
            for level in supportedLevels() where level != dkSimdScalar {
                let wide = probes.evaluate(def, t: 2.5, level: level)
                let same = zip(reference.ax + reference.ay, wide.ax + wide.ay).allSatisfy { $0.bitPattern == $1.bitPattern }
                #expect(same, "kind \(kind.rawValue), falloff \(falloff), level \(level.rawValue)")
            }
        }
    }

    // 2^y with y = −falloff · log2 r in float: y's rounding (|y| · 2⁻²⁴) bounds the relative error.
    @Test("general falloff: the kernel's r^-falloff is within float rounding of pow",
          arguments: [0.5, 1.5, 3, 7.25] as [Float])
    func generalFalloff(falloff: Float) {
        let probes = Probes(count: 500, seed: 9)
        var def = definition(dkFieldRadialGravity, falloff: falloff)
        def.minimumRadius = 1
        let (ax, ay) = probes.evaluate(def)
        for i in 0..<probes.x.count {
            let r = max(1, hypot(Double(probes.x[i]) - 37, Double(probes.y[i]) + 12))
            let expected = 1000 * 0.75 * pow(r, -Double(falloff))
            let got = hypot(Double(ax[i]), Double(ay[i]))
            let y = Double(falloff) * log2(r)
            #expect(abs(got - expected) <= (2e-6 + 1.5e-7 * y) * expected, "r = \(r): \(got) vs \(expected)")
        }
    }

    @Test("noise: components within ±1 (|a| ≤ 1000 · strength per axis), varied, smooth in space")
    func noiseBoundedAndSmooth() {
        var def = definition(dkFieldNoise)
        def.smoothness = 0.5  // wavelength 100 pt ± 25 %: |∇N| ≤ 2π/75 per pt
        let probes = Probes(count: 4000, seed: 3)
        let (ax, ay) = probes.evaluate(def, t: 1)
        let bound: Float = 1000 * 0.75
        #expect((ax + ay).allSatisfy { abs($0) <= bound })
        #expect((ax + ay).map(abs).max()! > 0.5 * bound, "the noise reaches half its range")
        let mean = (ax + ay).reduce(0, +) / Float(2 * ax.count)
        #expect(abs(mean) < 0.05 * bound, "mean \(mean)")
        var shifted = probes
        shifted.x = probes.x.map { $0 + 0.5 }
        let moved = shifted.evaluate(def, t: 1)
        let slope: Float = bound * 2 * .pi / 75 * 0.5 * 1.01
        for i in 0..<ax.count { #expect(abs(moved.ax[i] - ax[i]) <= slope && abs(moved.ay[i] - ay[i]) <= slope) }
    }

    @Test("noise: the same seed gives the same field, another seed another; frozen at animationSpeed 0")
    func noiseSeedsAndTime() {
        let probes = Probes(count: 256, seed: 11)
        var def = definition(dkFieldNoise)
        let a = probes.evaluate(def, seed: 7, t: 3), b = probes.evaluate(def, seed: 7, t: 3)
        let c = probes.evaluate(def, seed: 8, t: 3)
        #expect(a.ax == b.ax && a.ay == b.ay)
        #expect(zip(a.ax, c.ax).filter { $0 != $1 }.count > 200)
        let later = probes.evaluate(def, seed: 7, t: 3.2)
        #expect(zip(a.ax, later.ax).filter { $0 != $1 }.count > 200, "animationSpeed 1 Hz changes the noise")
        def.animationSpeed = 0
        let frozen0 = probes.evaluate(def, seed: 7, t: 0), frozen1 = probes.evaluate(def, seed: 7, t: 9.5)
        #expect(frozen0.ax == frozen1.ax && frozen0.ay == frozen1.ay)
    }

    @Test("turbulence scales with speed: twice the velocity, twice the acceleration")
    func turbulenceScalesWithSpeed() {
        let probes = Probes(count: 300, seed: 13)
        var fast = probes
        fast.vx = probes.vx.map { 2 * $0 }
        fast.vy = probes.vy.map { 2 * $0 }
        let def = definition(dkFieldTurbulence)
        let slow = probes.evaluate(def, t: 1), quick = fast.evaluate(def, t: 1)
        for i in 0..<probes.x.count where abs(slow.ax[i]) > 1e-3 {
            #expect(abs(quick.ax[i] / slow.ax[i] - 2) < 1e-5)
        }
    }

    @Test("bad field definitions are rejected naming the field")
    func invalidDefinitions() {
        let probes = Probes(count: 4, seed: 1)
        var error = dkError()
        var ax = [Float](repeating: 0, count: 4), ay = ax
        for (name, change) in [("strength", { (d: inout dkFieldDef) in d.strength = .nan }),
                               ("falloff", { $0.falloff = -1 }), ("minimumRadius", { $0.minimumRadius = 0 }),
                               ("smoothness", { $0.smoothness = 1.5 }), ("animationSpeed", { $0.animationSpeed = -2 })]
        {
            var d = definition(dkFieldNoise)
            change(&d)
            let r = dkFieldAccelerations(&d, 0, 0, 0, probes.x, probes.y, probes.vx, probes.vy, probes.inverseMass,
                                         probes.charge, 4, dkSimdScalar, &ax, &ay, &error)
            #expect(r == dkResultInvalidValue && String(cString: error.field) == name)
        }
    }
}
