// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One dynamic item (or item group) of an animator and its kernel item.
final class AnimatorEntry {
    /// A member of a group, placed in the group's body frame.
    struct Member {
        let item: any DynamicItem
        let offset: CGVector  // from the group's centre of mass at body angle 0, pt
        let angle: CGFloat    // member rotation at body angle 0, rad
    }

    let item: any DynamicItem
    let id: ItemID
    let members: [Member]
    /// The mass description last given to the kernel.
    var massDescription: ItemDescription
    /// Whether the item has collision shapes (it is in a collision behaviour).
    var collides = false

    init(item: any DynamicItem, id: ItemID, members: [Member], massDescription: ItemDescription) {
        self.item = item
        self.id = id
        self.members = members
        self.massDescription = massDescription
    }
}
