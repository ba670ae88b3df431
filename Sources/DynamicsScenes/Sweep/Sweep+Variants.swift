// SPDX-License-Identifier: Apache-2.0
import Foundation

extension Sweep {
    /// How many variants the parameters make (1 without parameters: the base scene alone).
    public var variantCount: Int {
        if parameters.isEmpty { return 1 }
        switch combination {
        case .zip: return parameters[0].values.count
        case .grid:
            var n = 1
            for p in parameters {
                let (product, overflow) = n.multipliedReportingOverflow(by: p.values.count)
                if overflow || product > Self.maximumVariants { return Self.maximumVariants + 1 }
                n = product
            }
            return n
        }
    }

    /// Variant `index` (0 ≤ index < variantCount): in a grid the first parameter varies slowest.
    public func variant(_ index: Int) -> SweepVariant {
        var values: [SceneValue] = []
        switch combination {
        case .zip: values = parameters.map { $0.values[index] }
        case .grid:
            var rest = index
            for p in parameters.reversed() {
                values.append(p.values[rest % p.values.count])
                rest /= p.values.count
            }
            values.reverse()
        }
        return SweepVariant(index: index, id: Self.variantID(pointers: parameters.map(\.pointer), values: values), values: values)
    }

    /// The stable id of a combination of values.
    static func variantID(pointers: [String], values: [SceneValue]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (pointer, value) in zip(pointers, values) {
            for byte in (pointer + "=" + value.compact + "\n").utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16).leftPadded(to: 16)
    }

    /// The base scene with the fixed changes and variant `v`'s values written in.
    public func scene(of v: SweepVariant, base: SceneValue) throws(SweepPointerError) -> SceneValue {
        var scene = base
        for a in fixed { scene = try scene.setting(a.pointer, to: a.value) }
        for (p, value) in zip(parameters, v.values) { scene = try scene.setting(p.pointer, to: value) }
        return scene
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
