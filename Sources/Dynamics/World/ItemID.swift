// SPDX-License-Identifier: Apache-2.0
/// The id of an item of a ``DynamicWorld``: a slot index and the slot's generation.
///
/// Ids stay valid while their item exists, whatever else is created or removed; an id whose item was
/// removed is stale and is rejected (the slot's generation moved on), even if the slot was reused.
public struct ItemID: Hashable, Sendable, CustomStringConvertible {
    /// The slot, counting from 1 (0 is never a valid id).
    public let index: UInt32
    /// The slot's generation when the item was created.
    public let generation: UInt32
    /// Creates an id from its parts (normally you get ids from ``DynamicWorld/createItems(_:at:angles:)``).
    public init(index: UInt32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }
    /// `#index.generation`.
    public var description: String { "#\(index).\(generation)" }
}
