// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicAnimator {
    /// Gives every attachment behaviour in the tree its kernel attachment (made from the items' current
    /// poses), passes changed parameters and anchors on, and removes the attachments of behaviours that
    /// left the tree.
    func syncAttachments(_ order: [DynamicBehavior]) {
        let attachments = order.compactMap { $0 as? AttachmentBehavior }
        let live = Set(attachments.map(ObjectIdentifier.init))
        do {
            let gone = attachmentIDs.filter { !live.contains($0.key) }
            for (key, id) in gone {
                if world.contains(id) { try world.removeAttachments([id]) }
                attachmentIDs[key] = nil
            }
            for a in attachments {
                let key = ObjectIdentifier(a)
                if let id = attachmentIDs[key], world.contains(id) {
                    if a.collisionChanged { try world.setItemsCollide(a.attachedItemsCollide, for: [id]) }
                    a.collisionChanged = false
                    guard a.needsUpdate else { continue }
                    try world.updateAttachment(id, to: a.attachmentKind, length: a.length)
                    if a.attachedBehaviorType == .anchor { try world.moveAnchor(of: id, to: a.anchorPoint) }
                } else {
                    attachmentIDs[key] = try makeAttachment(a)
                    a.collisionChanged = false
                }
                a.needsUpdate = false
            }
        } catch {
            fatalError("AttachmentBehavior: \(error)")
        }
    }

    private func makeAttachment(_ a: AttachmentBehavior) throws(DynamicsError) -> AttachmentID {
        let first = entry(for: a.items[0])!.id
        let itemAnchor = a.sharedAnchor ?? AttachmentBehavior.point(of: a.items[0], a.offsets[0])
        if a.attachedBehaviorType == .anchor {
            let anchor: CGPoint = if case .slider = a.kind { a.sharedAnchor! } else { a.anchorPoint }
            return try world.addAttachments(a.attachmentKind, items: [first], to: [nil], anchors: [anchor],
                                            itemAnchors: [itemAnchor])[0]
        }
        let second = entry(for: a.items[1])!.id
        let anchor = a.sharedAnchor ?? AttachmentBehavior.point(of: a.items[1], a.offsets[1])
        return try world.addAttachments(a.attachmentKind, items: [first], to: [second], anchors: [anchor],
                                        itemAnchors: [itemAnchor], itemsCollide: a.attachedItemsCollide)[0]
    }
}
