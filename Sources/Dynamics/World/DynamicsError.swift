// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Errors thrown for bad data. A call that throws changes nothing in the world.
public enum DynamicsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A number was NaN, infinite or out of range. `index` is the element of a bulk call, when there is one.
    case invalidValue(field: String, value: Double, index: Int?)
    /// An id was removed, never existed, or belongs to an earlier generation of its slot.
    case staleID(ItemID)
    /// The same id appeared twice in one bulk call.
    case duplicateID(ItemID)
    /// An attachment id was removed (directly or with one of its items) or never existed.
    case staleAttachment(AttachmentID)
    /// A field id was removed or never existed.
    case staleField(FieldID)
    /// The kernel could not allocate memory for the request. For a step (field `step`, value the item
    /// count), the step integrated nothing: the world is as the previous step left it.
    case outOfMemory(field: String, value: Double)
    /// Bytes given as a snapshot (``DynamicWorld/init(snapshot:workerCount:)``) are not one this version can
    /// read: `field` is `magic` (not a snapshot), `version` (another format version, `value`), `length`
    /// (truncated or with bytes after its end; `value` the bytes given), `checksum` (damaged), or the part of
    /// the world whose value is out of range or does not fit the rest (for example `contacts.shapeA`). A scene
    /// run's checkpoint adds `run` (a world's snapshot, not a run's checkpoint), `document` (a checkpoint of
    /// another scene), and `document` followed by a JSON Pointer: a variant that differs from the checkpoint's
    /// scene in what its run had already done by the checkpoint's step (`value`).
    case invalidSnapshot(field: String, value: Double)

    /// One line naming the field and the value.
    public var description: String {
        switch self {
        case let .invalidValue(field, value, index):
            let at = index.map { " (element \($0))" } ?? ""
            return "invalid value for \(field): \(value)\(at)"
        case let .staleID(id): return "stale item id \(id)"
        case let .duplicateID(id): return "item id \(id) appears twice"
        case let .staleAttachment(id): return "stale attachment id \(id)"
        case let .staleField(id): return "stale field id \(id)"
        case let .outOfMemory(field, value): return "out of memory (\(field) = \(value))"
        case let .invalidSnapshot(field, value):
            switch field {
            case "magic": return "invalid snapshot: not a Dynamics snapshot"
            case "version": return "invalid snapshot: format version \(Int(value)), this version reads 1"
            case "length": return "invalid snapshot: truncated or too long (\(Int(value)) bytes)"
            case "checksum": return "invalid snapshot: damaged (its checksum does not match)"
            case "document": return "invalid snapshot: it is not a checkpoint of this scene"
            case let pointer where pointer.hasPrefix("document/"):
                return "the scene differs from the checkpoint's at \(pointer.dropFirst(8)), which its run had done by step \(Int(value))"
            default: return "invalid snapshot: \(field) out of range (\(value))"
            }
        }
    }
}
