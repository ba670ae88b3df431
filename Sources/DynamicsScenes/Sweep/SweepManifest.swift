// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What a results folder holds (its `sweep.json`): the sweep's name, how many variants it has, the columns
/// of its rows, and a fingerprint of everything that decides its results, so that shards of another sweep
/// are not mixed into it.
public struct SweepManifest: Hashable, Sendable {
    /// The sweep's name.
    public var name: String
    /// How many variants the sweep has.
    public var variants: Int
    /// The parameters' JSON Pointers, in order.
    public var parameters: [String]
    /// The metric columns, in order.
    public var columns: [String]
    /// 16 hex digits over the base scene, the fixed changes, the parameters and their values, the metrics,
    /// the run length and the per-variant outputs.
    public var fingerprint: String

    /// The manifest of `sweep` run on the base scene `base`.
    public init(_ sweep: Sweep, base: SceneValue, name: String) {
        self.name = name
        variants = sweep.variantCount
        parameters = sweep.parameters.map(\.pointer)
        columns = sweep.metrics.flatMap(\.columns)
        var text = base.compact + "\n"
        for a in sweep.fixed { text += "fixed \(a.pointer)=\(a.value.compact)\n" }
        for p in sweep.parameters { text += "parameter \(p.pointer)=\(SceneValue.array(p.values).compact)\n" }
        text += "combine \(sweep.combination.rawValue)\ncolumns \(columns)\nseconds \(sweep.seconds.map { "\($0)" } ?? "scene")\n"
        text += "items \(sweep.items.map { "\($0)" } ?? "scene")\noutputs \(sweep.outputs) every \(sweep.every)\n"
        if let start = sweep.start { text += "start \(start)\n" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        fingerprint = String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The manifest as one JSON object and a newline.
    public var text: String {
        let value = SceneValue.object([
            "format": .string("dynamics-sweep-results/1"), "name": .string(name), "variants": .number(Double(variants)),
            "parameters": .array(parameters.map { .string($0) }), "columns": .array(columns.map { .string($0) }),
            "fingerprint": .string(fingerprint),
        ])
        return value.compact + "\n"
    }

    /// Reads a manifest written by ``text``; nil when it is not one.
    public static func read(_ data: Data) -> SweepManifest? {
        guard let value = try? JSONDecoder().decode(SceneValue.self, from: data), case .object(let f) = value,
              f["format"] == .string("dynamics-sweep-results/1"), case .string(let name)? = f["name"],
              case .number(let n)? = f["variants"], case .array(let p)? = f["parameters"], case .array(let c)? = f["columns"],
              case .string(let fingerprint)? = f["fingerprint"]
        else { return nil }
        let strings: ([SceneValue]) -> [String] = { $0.compactMap { if case .string(let s) = $0 { s } else { nil } } }
        return SweepManifest(name: name, variants: Int(n), parameters: strings(p), columns: strings(c), fingerprint: fingerprint)
    }

    private init(name: String, variants: Int, parameters: [String], columns: [String], fingerprint: String) {
        self.name = name
        self.variants = variants
        self.parameters = parameters
        self.columns = columns
        self.fingerprint = fingerprint
    }
}
