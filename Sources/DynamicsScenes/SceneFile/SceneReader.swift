// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// Reads a ``SceneValue`` tree into typed values, collecting every problem with its JSON Pointer instead
/// of stopping at the first.
final class SceneReader {
    private(set) var problems: [SceneProblem] = []
    /// Every item id the file gives and where, generators' ids and counts, and tags, also of entries
    /// that have errors, so that references to them are not reported as dangling.
    var declaredItems: [(id: String, path: String)] = []
    var declaredGenerators: [(id: String, count: Int)] = []
    var declaredTags = Set<String>()
    var declaredBehaviors = Set<String>()
    var declaredTemplates: [(id: String, path: String)] = []
    /// The paths of the behaviours and events read without error, in order.
    var behaviorPaths: [String] = [], eventPaths: [String] = []

    func error(_ path: String, _ message: String) { problems.append(SceneProblem(path: path, message: message)) }
    func warning(_ path: String, _ message: String) {
        problems.append(SceneProblem(path: path, message: message, severity: .warning))
    }

    var hasErrors: Bool { problems.contains { $0.severity == .error } }

    /// `value` as an object whose keys are among `keys` (each unknown key is a problem, with the nearest
    /// known key as a suggestion); nil, with a problem, when it is not an object.
    func object(_ value: SceneValue, at path: String, keys: [String]) -> SceneObject? {
        guard case .object(let fields) = value else {
            error(path, "must be an object, got \(value.kindName)")
            return nil
        }
        for key in fields.keys.sorted() where !keys.contains(key) {
            let hint = Self.nearest(key, in: keys).map { " (did you mean '\($0)'?)" } ?? ""
            error(Self.path(path, key), "unknown key '\(key)'\(hint)")
        }
        return SceneObject(fields: fields, path: path, reader: self)
    }

    /// `value` as an array (nil, with a problem, when it is not one).
    func array(_ value: SceneValue, at path: String) -> [SceneValue]? {
        guard case .array(let values) = value else {
            error(path, "must be an array, got \(value.kindName)")
            return nil
        }
        return values
    }

    /// The path of `key` under `path` (RFC 6901 escapes).
    static func path(_ path: String, _ key: String) -> String {
        path + "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    static func path(_ path: String, _ index: Int) -> String { path + "/\(index)" }

    /// The candidate nearest to `word` by edit distance, if it is close (at most 2 edits, or a third of
    /// the word's length for long words).
    static func nearest(_ word: String, in candidates: [String]) -> String? {
        let limit = max(2, word.count / 3)
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}

/// An object of a scene file being read: typed accessors that report wrong types, missing keys and
/// values out of range at the key's path.
struct SceneObject {
    let fields: [String: SceneValue]
    let path: String
    let reader: SceneReader

    /// The largest magnitude a number may have: the kernel computes in Float.
    static let largest = 1e30

    func has(_ key: String) -> Bool { fields[key] != nil }

    /// The one key of `keys` the object has; nil with a problem at the object when it has none ("needs `none`")
    /// or several ("has a and b: `several`").
    func one(of keys: [String], none: String, several: String) -> String? {
        let given = keys.filter(has)
        guard given.count == 1 else {
            reader.error(path, given.isEmpty ? "needs \(none)" : "has \(given.joined(separator: " and ")): \(several)")
            return nil
        }
        return given[0]
    }
    func at(_ key: String) -> String { SceneReader.path(path, key) }

    /// The raw value; a problem when it is required and missing.
    func value(_ key: String, required: Bool = false) -> SceneValue? {
        if let value = fields[key] { return value }
        if required { reader.error(path, "missing key '\(key)'") }
        return nil
    }

    /// A finite number within [minimum, maximum] (and above `above` when given).
    func number(_ key: String, required: Bool = false, minimum: Double = -largest, maximum: Double = largest,
                above: Double? = nil) -> Double?
    {
        guard let value = value(key, required: required) else { return nil }
        return Self.number(value, at: at(key), reader: reader, minimum: minimum, maximum: maximum, above: above)
    }

    static func number(_ value: SceneValue, at path: String, reader: SceneReader, minimum: Double = -largest,
                       maximum: Double = largest, above: Double? = nil) -> Double?
    {
        guard case .number(let x) = value else {
            reader.error(path, "must be a number, got \(value.kindName)")
            return nil
        }
        guard x.isFinite else {
            reader.error(path, "must be a finite number, got \(x)")
            return nil
        }
        if let above, x <= above {
            reader.error(path, "must be > \(format(above)), got \(format(x))")
            return nil
        }
        guard x >= minimum, x <= maximum else {
            let range = minimum == -largest && maximum == largest ? "within ±1e30 (the kernel computes in Float)"
                : maximum == largest ? "≥ \(format(minimum))" : minimum == -largest ? "≤ \(format(maximum))"
                : "in \(format(minimum))…\(format(maximum))"
            reader.error(path, "must be \(range), got \(format(x))")
            return nil
        }
        return x
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
    }

    /// A whole number within [minimum, maximum].
    func integer(_ key: String, required: Bool = false, minimum: Int = 0, maximum: Int = Int(Int32.max)) -> Int? {
        guard let x = number(key, required: required, minimum: Double(minimum), maximum: Double(maximum)) else {
            return nil
        }
        guard x == x.rounded() else {
            reader.error(at(key), "must be a whole number, got \(x)")
            return nil
        }
        return Int(x)
    }

    func bool(_ key: String) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let b) = value else {
            reader.error(at(key), "must be true or false, got \(value.kindName)")
            return nil
        }
        return b
    }

    func string(_ key: String, required: Bool = false) -> String? {
        guard let value = value(key, required: required) else { return nil }
        guard case .string(let s) = value else {
            reader.error(at(key), "must be a string, got \(value.kindName)")
            return nil
        }
        return s
    }

    /// One of `choices`.
    func choice(_ key: String, _ choices: [String], required: Bool = false) -> String? {
        guard let s = string(key, required: required) else { return nil }
        guard choices.contains(s) else {
            let hint = SceneReader.nearest(s, in: choices).map { " (did you mean '\($0)'?)" } ?? ""
            reader.error(at(key), "must be one of \(choices.joined(separator: ", ")), got '\(s)'\(hint)")
            return nil
        }
        return s
    }

    func strings(_ key: String) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let values = reader.array(value, at: at(key)) else { return nil }
        var out: [String] = []
        for (k, v) in values.enumerated() {
            guard case .string(let s) = v else {
                reader.error(SceneReader.path(at(key), k), "must be a string, got \(v.kindName)")
                continue
            }
            out.append(s)
        }
        return out
    }

    /// Two numbers `[a, b]`.
    func pair(_ key: String, required: Bool = false, minimum: Double = -largest) -> (Double, Double)? {
        guard let value = value(key, required: required) else { return nil }
        return Self.pair(value, at: at(key), reader: reader, minimum: minimum)
    }

    static func pair(_ value: SceneValue, at path: String, reader: SceneReader, minimum: Double = -largest)
        -> (Double, Double)?
    {
        guard case .array(let values) = value, values.count == 2 else {
            let got = if case .array(let values) = value { "an array of \(values.count)" } else { value.kindName }
            reader.error(path, "must be an array of two numbers [x, y], got \(got)")
            return nil
        }
        let a = number(values[0], at: SceneReader.path(path, 0), reader: reader, minimum: minimum)
        let b = number(values[1], at: SceneReader.path(path, 1), reader: reader, minimum: minimum)
        guard let a, let b else { return nil }
        return (a, b)
    }

    func point(_ key: String, required: Bool = false) -> CGPoint? {
        pair(key, required: required).map { CGPoint(x: $0.0, y: $0.1) }
    }

    func vector(_ key: String, required: Bool = false) -> CGVector? {
        pair(key, required: required).map { CGVector(dx: $0.0, dy: $0.1) }
    }

    /// An array of points `[[x, y], …]`.
    func points(_ key: String, required: Bool = false) -> [CGPoint]? {
        guard let value = value(key, required: required), let values = reader.array(value, at: at(key)) else {
            return nil
        }
        let points = values.enumerated().compactMap { k, v in
            Self.pair(v, at: SceneReader.path(at(key), k), reader: reader).map { CGPoint(x: $0.0, y: $0.1) }
        }
        return points.count == values.count ? points : nil
    }

    /// A rectangle `{x, y, width, height}` with positive size.
    func rect(_ key: String, required: Bool = false) -> CGRect? {
        guard let value = value(key, required: required),
              let o = reader.object(value, at: at(key), keys: ["x", "y", "width", "height"])
        else { return nil }
        let x = o.number("x", required: true), y = o.number("y", required: true)
        let w = o.number("width", required: true, above: 0), h = o.number("height", required: true, above: 0)
        guard let x, let y, let w, let h else { return nil }
        return CGRect(x: x, y: y, width: w, height: h)
    }

    /// A nested object.
    func object(_ key: String, keys: [String], required: Bool = false) -> SceneObject? {
        guard let value = value(key, required: required) else { return nil }
        return reader.object(value, at: at(key), keys: keys)
    }
}
