// SPDX-License-Identifier: Apache-2.0
/// What the animator last gave the world for one built-in ``FieldBehavior``.
struct FieldRecord {
    var id: FieldID
    var description: FieldDescription
    var items: Set<ItemID>
}
