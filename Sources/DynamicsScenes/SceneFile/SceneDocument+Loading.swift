// SPDX-License-Identifier: Apache-2.0
import Foundation
import Yams

extension SceneDocument {
    /// Reads a scene file: JSON, or YAML when the name ends in `.yaml` or `.yml`. Throws a
    /// ``SceneFileError`` listing every problem; `warnings` receives the warnings of a valid file.
    public static func load(contentsOf url: URL, limits: SceneLimits = .init(),
                            warnings: ((SceneProblem) -> Void)? = nil) throws(SceneFileError) -> SceneDocument
    {
        let (data, yaml) = try contents(of: url, limits: limits)
        return try parse(data, yaml: yaml, limits: limits, warnings: warnings)
    }

    /// Reads a scene file as ``load(contentsOf:limits:warnings:)`` does and returns, with the document, the
    /// file's value as written: before the reader's normal form rewrites anything (a push's `angle` and
    /// `magnitude` into a `vector`, a generator's defaults filled in). A sweep's pointers name places in it.
    public static func loadAsWritten(contentsOf url: URL, limits: SceneLimits = .init())
        throws(SceneFileError) -> (document: SceneDocument, written: SceneValue)
    {
        let (data, yaml) = try contents(of: url, limits: limits)
        let (value, problems) = parseValue(data, yaml: yaml, limits: limits)
        guard let value else { throw SceneFileError(kind: .data, problems: problems) }
        let (document, documentProblems) = read(value, limits: limits)
        guard let document else { throw SceneFileError(kind: .data, problems: documentProblems) }
        return (document, value)
    }

    /// A file's bytes (at most one past the limit) and whether its name says YAML.
    private static func contents(of url: URL, limits: SceneLimits) throws(SceneFileError) -> (Data, Bool) {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw SceneFileError(kind: .cannotOpen, problems: [SceneProblem(path: "", message: "cannot open \(url.path): \(Self.reason(error))")])
        }
        defer { try? handle.close() }
        let data: Data
        do {
            // Read at most one byte past the limit: a larger file is refused without reading it whole.
            data = try handle.read(upToCount: limits.bytes + 1) ?? Data()
        } catch {
            throw SceneFileError(kind: .io, problems: [SceneProblem(path: "", message: "cannot read \(url.path): \(Self.reason(error))")])
        }
        return (data, ["yaml", "yml"].contains(url.pathExtension.lowercased()))
    }

    /// Reads a scene from its text (JSON, or YAML when `yaml`).
    public static func parse(_ data: Data, yaml: Bool = false, limits: SceneLimits = .init(),
                             warnings: ((SceneProblem) -> Void)? = nil) throws(SceneFileError) -> SceneDocument
    {
        let (document, problems) = read(data, yaml: yaml, limits: limits)
        guard let document else { throw SceneFileError(kind: .data, problems: problems) }
        problems.forEach { warnings?($0) }
        return document
    }

    /// Every problem of a scene's text, and the document when it has no error.
    public static func read(_ data: Data, yaml: Bool, limits: SceneLimits = .init()) -> (SceneDocument?, [SceneProblem]) {
        let (value, problems) = parseValue(data, yaml: yaml, limits: limits)
        guard let value else { return (nil, problems) }
        return read(value, limits: limits)
    }

    /// A scene's text as a value, within the limits, or the problem that stops it.
    static func parseValue(_ data: Data, yaml: Bool, limits: SceneLimits) -> (SceneValue?, [SceneProblem]) {
        func fail(_ message: String) -> (SceneValue?, [SceneProblem]) { (nil, [SceneProblem(path: "", message: message)]) }
        if data.count > limits.bytes { return fail("the file is larger than the limit of \(limits.bytes) bytes") }
        let depth = nestingBound(data)
        if depth > limits.depth { return fail("nesting deeper than the limit of \(limits.depth) levels") }
        let value: SceneValue
        let budget = SceneValueBudget(max(data.count, 64))
        do {
            if yaml {
                guard let text = String(data: data, encoding: .utf8) else { return fail("the file is not UTF-8 text") }
                value = try YAMLDecoder().decode(SceneValue.self, from: text, userInfo: [SceneValueBudget.key: budget])
            } else {
                let decoder = JSONDecoder()
                decoder.userInfo[SceneValueBudget.key] = budget
                value = try decoder.decode(SceneValue.self, from: data)
            }
        } catch where budget.isSpent {
            return fail("the document expands to more values than the file has bytes (YAML aliases?)")
        } catch {
            return fail("not valid \(yaml ? "YAML" : "JSON"): \(yaml ? syntaxReason(error) : jsonSyntaxReason(data))")
        }
        if value.depth > limits.depth { return fail("nesting deeper than the limit of \(limits.depth) levels") }
        return (value, [])
    }

    /// An upper bound of the nesting depth from the text alone (brackets, and indentation for YAML), so that
    /// a deeply nested file is refused before a parser recurses into it.
    static func nestingBound(_ data: Data) -> Int {
        var depth = 0, deepest = 0, indent = 0, lineStart = true, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true; lineStart = false
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; deepest = max(deepest, depth + indent / 2); lineStart = false
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1); lineStart = false
            case UInt8(ascii: "\n"): lineStart = true; indent = 0
            case UInt8(ascii: " "), UInt8(ascii: "-"):
                if lineStart { indent += 1; deepest = max(deepest, depth + indent / 2) }
            default: lineStart = false
            }
        }
        return deepest
    }

    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError { return underlying.localizedDescription }
        return ns.localizedDescription
    }

    /// Where JSON text goes wrong, as Foundation's parser says, with its character offset as a line and column.
    static func jsonSyntaxReason(_ data: Data) -> String {
        var reason = "unreadable"
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? reason
        }
        guard let range = reason.range(of: #"around (line \d+, column \d+|character \d+)"#, options: .regularExpression) else {
            return reason
        }
        let words = reason[range].split(separator: " ")
        guard words.count == 3, words[1] == "character", let offset = Int(words[2]) else { return reason }
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return reason.replacingCharacters(in: range, with: "at line \(line), column \(column)")
    }

    /// The parser's own words, without Swift's decoding wrapper.
    static func syntaxReason(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            if let underlying = context.underlyingError {
                let text = "\(underlying)"
                if let range = text.range(of: "NSDebugDescription=") {
                    return String(text[range.upperBound...].prefix { $0 != "}" && $0 != "," })
                }
                return String(describing: underlying).split(separator: "\n").first.map(String.init) ?? context.debugDescription
            }
            return context.debugDescription
        }
        return String(describing: error).split(separator: "\n").first.map(String.init) ?? "unreadable"
    }
}
