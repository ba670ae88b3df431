// SPDX-License-Identifier: Apache-2.0
/// The id of an attachment of a ``DynamicWorld``: a slot index and the slot's generation.
///
/// An id stays valid until its attachment is removed, or until one of its items is removed (which
/// removes the item's attachments); then it is stale and rejected.
public struct AttachmentID: Hashable, Sendable, CustomStringConvertible {
    /// The slot, counting from 1 (0 is never a valid id).
    public let index: UInt32
    /// The slot's generation when the attachment was made.
    public let generation: UInt32
    /// Creates an id from its parts (normally you get ids from ``DynamicWorld/addAttachments(_:items:to:anchors:itemAnchors:itemsCollide:)``).
    public init(index: UInt32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }
    /// `@index.generation`.
    public var description: String { "@\(index).\(generation)" }
}
