// SPDX-License-Identifier: Apache-2.0
import Foundation

extension SceneValue {
    /// JSON text, indented by two spaces, with a value whose compact form fits in 120 characters kept on
    /// one line (so an item is one line). Object keys come in a reading order (format, name, type, id, …,
    /// then the rest sorted); numbers are written as the shortest text that reads back to the same Double.
    public var text: String {
        var out = ""
        write(into: &out, indent: "")
        return out + "\n"
    }

    /// The value on one line.
    var compact: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let x): return Self.number(x)
        case .string(let s): return Self.quoted(s)
        case .array(let values): return "[" + values.map(\.compact).joined(separator: ", ") + "]"
        case .object(let fields):
            return "{" + Self.ordered(fields.keys).map { "\(Self.quoted($0)): \(fields[$0]!.compact)" }.joined(separator: ", ") + "}"
        }
    }

    private func write(into out: inout String, indent: String) {
        let line = compact
        if line.count + indent.count <= 120 {
            out += line
            return
        }
        let inner = indent + "  "
        switch self {
        case .array(let values):
            out += "[\n"
            for (k, v) in values.enumerated() {
                out += inner
                v.write(into: &out, indent: inner)
                out += k + 1 < values.count ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let fields):
            out += "{\n"
            let keys = Self.ordered(fields.keys)
            for (k, key) in keys.enumerated() {
                out += inner + Self.quoted(key) + ": "
                fields[key]!.write(into: &out, indent: inner)
                out += k + 1 < keys.count ? ",\n" : "\n"
            }
            out += indent + "}"
        default:
            out += line
        }
    }

    /// Keys that read best first, in this order; the others follow sorted.
    static let leading = ["format", "name", "description", "bounds", "configuration", "time", "type", "id", "kind", "item", "to",
                          "items", "generators", "behaviors", "timeline"]

    static func ordered(_ keys: Dictionary<String, SceneValue>.Keys) -> [String] {
        keys.sorted { a, b in
            let i = leading.firstIndex(of: a) ?? leading.count, j = leading.firstIndex(of: b) ?? leading.count
            return i != j ? i < j : a < b
        }
    }

    static func number(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
