// SPDX-License-Identifier: Apache-2.0
/// The id of an item of a ``DynamicWorld``: a slot index, the slot's generation, and the world it belongs to.
///
/// Ids stay valid while their item exists, whatever else is created or removed; an id whose item was
/// removed is stale and is rejected (the slot's generation moved on), even if the slot was reused. An id
/// is valid only in the world that made it: another world rejects it as stale even where its slot and
/// generation match one of its own items.
public struct ItemID: Hashable, Sendable, CustomStringConvertible {
    /// The slot, counting from 1 (0 is never a valid id).
    public let index: UInt32
    /// The slot's generation when the item was created.
    public let generation: UInt32
    /// The world that made the id (0 for an id made from its parts, which every world takes as its own).
    public let world: UInt32
    /// Creates an id from its parts, valid in any world (normally you get ids from
    /// ``DynamicWorld/createItems(_:at:angles:)``, which carry their world).
    public init(index: UInt32, generation: UInt32) {
        self.init(index: index, generation: generation, world: 0)
    }

    init(index: UInt32, generation: UInt32, world: UInt32) {
        self.index = index
        self.generation = generation
        self.world = world
    }
    /// `#index.generation`.
    public var description: String { "#\(index).\(generation)" }
}
