// SPDX-License-Identifier: Apache-2.0
/// The id of a field of a ``DynamicWorld``: a slot index and the slot's generation.
///
/// An id stays valid until its field is removed; then it is stale and rejected. A world holds at most
/// 64 fields at once (membership is one bit per field per item).
public struct FieldID: Hashable, Sendable, CustomStringConvertible {
    /// The slot, counting from 1 (0 is never a valid id).
    public let index: UInt32
    /// The slot's generation when the field was made.
    public let generation: UInt32
    /// Creates an id from its parts (normally you get ids from ``DynamicWorld/addField(_:for:)``).
    public init(index: UInt32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }
    /// `%index.generation`.
    public var description: String { "%\(index).\(generation)" }
}
