// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization

/// A scene file's content before it is read: JSON's kinds of value. A YAML scene file reads into the same
/// values, so both formats go through one reader.
public indirect enum SceneValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SceneValue])
    case object([String: SceneValue])

    /// The kind's name as problems report it ("a number", "an object", …).
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// How deeply arrays and objects nest (a scalar is 0), without recursion.
    var depth: Int {
        var deepest = 0
        var pending: [(SceneValue, Int)] = [(self, 0)]
        while let (value, level) = pending.popLast() {
            deepest = max(deepest, level)
            switch value {
            case .array(let values): pending += values.map { ($0, level + 1) }
            case .object(let fields): pending += fields.values.map { ($0, level + 1) }
            default: break
            }
        }
        return deepest
    }
}

/// How many values a document may still decode into. YAML aliases let a small file stand for an
/// exponentially large tree ("billion laughs"); a document is refused once it decodes into more values than
/// its file has bytes, which no file without aliases can reach.
final class SceneValueBudget: Sendable {
    static let key = CodingUserInfoKey(rawValue: "dynamics.sceneValueBudget")!
    private let left: Atomic<Int>

    init(_ values: Int) { left = Atomic(values) }

    /// Whether the document ran past the budget (the decoding error that follows may be another's).
    var isSpent: Bool { left.load(ordering: .relaxed) < 0 }

    /// Counts one value; throws when the budget is spent.
    func spend(_ codingPath: [any CodingKey]) throws {
        if left.subtract(1, ordering: .relaxed).newValue < 0 {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath,
                                                    debugDescription: "the document expands to more values than the file has bytes (YAML aliases?)"))
        }
    }
}

extension SceneValue: Codable {
    public init(from decoder: any Decoder) throws {
        try (decoder.userInfo[SceneValueBudget.key] as? SceneValueBudget)?.spend(decoder.codingPath)
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SceneValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SceneValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
