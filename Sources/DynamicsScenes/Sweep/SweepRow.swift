// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One variant's result: its parameter values and metric values, or the reason it has none. A row is one
/// line of JSON with its keys in a fixed order (index, id, parameters, metrics or error), so equal results
/// are equal bytes whichever shard and however many workers made them.
public struct SweepRow: Hashable, Sendable {
    /// The variant's index.
    public var index: Int
    /// The variant's id.
    public var id: String
    /// The parameters' values, in the manifest's order.
    public var parameters: [SceneValue]
    /// The metric values, in the manifest's column order (empty with an error).
    public var metrics: [SceneValue]
    /// Why the variant has no results: an invalid scene, a diverged run.
    public var error: String?

    /// Creates a row.
    public init(index: Int, id: String, parameters: [SceneValue], metrics: [SceneValue], error: String? = nil) {
        self.index = index
        self.id = id
        self.parameters = parameters
        self.metrics = metrics
        self.error = error
    }

    /// The row as one line of JSON (with its newline), keys named by `manifest`.
    public func line(_ manifest: SweepManifest) -> String {
        func object(_ keys: [String], _ values: [SceneValue]) -> String {
            "{" + zip(keys, values).map { "\(SceneValue.quoted($0)):\($1.compact)" }.joined(separator: ",") + "}"
        }
        var out = "{\"index\":\(index),\"id\":\(SceneValue.quoted(id)),\"parameters\":\(object(manifest.parameters, parameters))"
        if let error { out += ",\"error\":\(SceneValue.quoted(error))" } else { out += ",\"metrics\":\(object(manifest.columns, metrics))" }
        return out + "}\n"
    }

    /// Reads a line written by ``line(_:)`` for `manifest`; nil when it is not one.
    public static func read(_ line: Substring, _ manifest: SweepManifest) -> SweepRow? {
        guard let value = try? JSONDecoder().decode(SceneValue.self, from: Data(line.utf8)), case .object(let f) = value,
              case .number(let index)? = f["index"], index == index.rounded(), index >= 0, case .string(let id)? = f["id"],
              case .object(let p)? = f["parameters"]
        else { return nil }
        let parameters = manifest.parameters.map { p[$0] ?? .null }
        if case .string(let error)? = f["error"] {
            return SweepRow(index: Int(index), id: id, parameters: parameters, metrics: [], error: error)
        }
        guard case .object(let m)? = f["metrics"] else { return nil }
        return SweepRow(index: Int(index), id: id, parameters: parameters, metrics: manifest.columns.map { m[$0] ?? .null })
    }

    /// The row as one CSV record (RFC 4180), columns as ``SweepTable/csvHeader(_:)`` names them.
    public func csv(_ manifest: SweepManifest) -> String {
        let field = Self.csvField
        let metrics = error == nil ? self.metrics : Array(repeating: SceneValue.null, count: manifest.columns.count)
        let fields = [String(index), id] + parameters.map(field) + metrics.map(field) + [field(error.map { .string($0) } ?? .null)]
        return fields.joined(separator: ",") + "\n"
    }

    /// One value as a CSV field: empty for null, a string as itself, anything else as compact JSON; quoted
    /// when it holds a comma, a quote or a line break.
    public static func csvField(_ v: SceneValue) -> String {
        let text: String
        switch v {
        case .null: return ""
        case .string(let s): text = s
        default: text = v.compact
        }
        guard text.contains(where: { ",\"\n\r".contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
