// SPDX-License-Identifier: Apache-2.0
import Foundation

extension SceneValue {
    /// The value with the one at JSON Pointer `pointer` (RFC 6901: `/items/0/material/friction`, `~1` for
    /// `/` and `~0` for `~` in a key) replaced by `value`. An object gains a missing key; `-` appends to an
    /// array. Throws a description of the first step that does not resolve.
    public func setting(_ pointer: String, to value: SceneValue) throws(SweepPointerError) -> SceneValue {
        guard pointer.hasPrefix("/") else { throw SweepPointerError(pointer: pointer, reason: "must start with '/'") }
        let tokens = pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
        return try setting(tokens[...], to: value, pointer: pointer, depth: 0)
    }

    private func setting(_ tokens: ArraySlice<String>, to value: SceneValue, pointer: String, depth: Int)
        throws(SweepPointerError) -> SceneValue
    {
        guard let token = tokens.first else { return value }
        let rest = tokens.dropFirst()
        switch self {
        case .object(var fields):
            if rest.isEmpty {
                fields[token] = value
            } else {
                guard let inner = fields[token] else {
                    throw SweepPointerError(pointer: pointer, reason: "no key '\(token)' at step \(depth + 1)")
                }
                fields[token] = try inner.setting(rest, to: value, pointer: pointer, depth: depth + 1)
            }
            return .object(fields)
        case .array(var values):
            if token == "-" && rest.isEmpty {
                values.append(value)
                return .array(values)
            }
            guard let k = Int(token), k >= 0, String(k) == token else {
                throw SweepPointerError(pointer: pointer, reason: "'\(token)' is not an array index at step \(depth + 1)")
            }
            guard k < values.count else {
                throw SweepPointerError(pointer: pointer, reason: "index \(k) is past the end of an array of \(values.count) at step \(depth + 1)")
            }
            values[k] = rest.isEmpty ? value : try values[k].setting(rest, to: value, pointer: pointer, depth: depth + 1)
            return .array(values)
        default:
            throw SweepPointerError(pointer: pointer, reason: "step \(depth + 1) ('\(token)') goes into \(kindName), not an object or array")
        }
    }

    /// The value at JSON Pointer `pointer`, or nil when it does not resolve.
    public func value(at pointer: String) -> SceneValue? {
        guard pointer.hasPrefix("/") else { return pointer.isEmpty ? self : nil }
        var current = self
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case .object(let fields):
                guard let next = fields[token] else { return nil }
                current = next
            case .array(let values):
                guard let k = Int(token), values.indices.contains(k) else { return nil }
                current = values[k]
            default: return nil
            }
        }
        return current
    }
}
