// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicWorld {
    /// Attaches `items[i]` to `others[i]` (nil: to a fixed point of the world) for every i, in one call:
    /// chains, grids and ropes without a Swift object per attachment.
    ///
    /// Anchors are reference-coordinate points (pt) at the items' current poses: `anchors[i]` is the
    /// anchor on the other side (the world point itself when `others[i]` is nil) and `itemAnchors[i]`
    /// (default: `anchors[i]`) the anchor on `items[i]`. Each anchor then moves with its item. Pins,
    /// welds and sliders hold their two anchors together, so for them the two are usually the same point.
    ///
    /// ```swift
    /// // A chain: each link pinned to the previous one halfway between their centres.
    /// let pins = zip(links.dropFirst(), links).map { pair in midpoint(pair) }
    /// try world.addAttachments(.pin(), items: Array(links.dropFirst()), to: links.dropLast().map { $0 }, anchors: pins)
    /// ```
    ///
    /// Two attached items do not collide with each other unless `itemsCollide` is true (as Box2D's joints,
    /// and as UIKit users expect of a chain of attached views); contacts they already have end.
    ///
    /// Throws, creating nothing, when the arrays differ in length, an id is stale, an item would be
    /// attached to itself, or a number is out of range (the error names the field and the element).
    /// Wakes the items.
    @discardableResult
    public func addAttachments(_ kind: AttachmentKind, items: [ItemID], to others: [ItemID?], anchors: [CGPoint],
                               itemAnchors: [CGPoint]? = nil, itemsCollide: Bool = false) throws(DynamicsError)
        -> [AttachmentID]
    {
        requireNoColumnView("addAttachments")
        let n = items.count
        for (name, count) in [("others", others.count), ("anchors", anchors.count), ("itemAnchors", itemAnchors?.count ?? n)]
        where count != n {
            throw .invalidValue(field: "\(name).count (items.count is \(n))", value: Double(count), index: nil)
        }
        var joints: [KernelJoint] = []
        joints.reserveCapacity(n)
        for i in 0..<n {
            let a = anchors[i], b = itemAnchors?[i] ?? anchors[i]
            for (name, v) in [("anchors.x", a.x), ("anchors.y", a.y), ("itemAnchors.x", b.x), ("itemAnchors.y", b.y)]
            where !v.isFinite || abs(v) > 1e7 {
                throw .invalidValue(field: name, value: Double(v), index: i)
            }
            guard contains(items[i]) else { throw .staleID(items[i]) }
            if let other = others[i], !contains(other) { throw .staleID(other) }
            var joint = KernelJoint(itemA: others[i], itemB: items[i], anchorA: a, anchorB: local(b, of: items[i]),
                                    kind: kind, length: hypot(b.x - a.x, b.y - a.y))
            if let other = others[i] { joint.anchorA = local(a, of: other) }
            joint.itemsCollide = itemsCollide
            if case let .slider(axis, _, _) = kind {
                let angle = others[i].map { pose(of: $0).angle } ?? 0
                joint.axis = CGVector(dx: cos(angle) * axis.dx + sin(angle) * axis.dy,
                                      dy: -sin(angle) * axis.dx + cos(angle) * axis.dy)
            }
            joints.append(joint)
        }
        return try kernel.createJoints(joints)
    }

    /// Removes attachments (and wakes their items). Throws, removing nothing, when an id is stale or repeated.
    public func removeAttachments(_ ids: [AttachmentID]) throws(DynamicsError) {
        requireNoColumnView("removeAttachments")
        try kernel.destroyJoints(ids)
    }

    /// Whether `id` names an attachment of this world (false once it or one of its items was removed).
    public func contains(_ id: AttachmentID) -> Bool { kernel.jointIsValid(id) }

    /// How many attachments the world holds.
    public var attachmentCount: Int { kernel.jointCount }

    /// The two anchors of an attachment in reference coordinates (pt) at the current poses: on the
    /// other side (or the world point) and on the item. Nil for a stale id.
    public func anchors(of id: AttachmentID) -> (anchor: CGPoint, itemAnchor: CGPoint)? {
        kernel.jointAnchors(id).map { ($0.a, $0.b) }
    }

    /// Moves the world point of an attachment made with a nil other side (pt); the item follows on the
    /// next step, as a dragged item does. Throws for a stale id, a non-finite point, or an attachment
    /// between two items.
    public func moveAnchor(of id: AttachmentID, to point: CGPoint) throws(DynamicsError) {
        requireNoColumnView("moveAnchor")
        try kernel.setJointAnchor(id, point)
    }

    /// Changes what an attachment holds: its length (rods and ropes, pt), spring, limits and friction.
    /// The kind's case must be the one it was made with (a slider's axis stays): another kind throws an
    /// invalid value for `kind` and changes nothing. Wakes its items.
    public func updateAttachment(_ id: AttachmentID, to kind: AttachmentKind, length: CGFloat) throws(DynamicsError) {
        requireNoColumnView("updateAttachment")
        try kernel.setJointParameters(id, kind, length: length)
    }

    /// Whether the two items of each attachment collide with each other (attachments to a point of the world
    /// are unaffected). Throws, changing nothing, for a stale id. Wakes the items of attachments that change.
    public func setItemsCollide(_ collide: Bool, for ids: [AttachmentID]) throws(DynamicsError) {
        requireNoColumnView("setItemsCollide")
        try kernel.setJointsCollide(ids, collide)
    }

    /// A reference-coordinate point in an item's frame (offset from its centre, unrotated).
    private func local(_ p: CGPoint, of id: ItemID) -> CGPoint {
        let (c, angle) = pose(of: id)
        let dx = p.x - c.x, dy = p.y - c.y
        return CGPoint(x: cos(angle) * dx + sin(angle) * dy, y: -sin(angle) * dx + cos(angle) * dy)
    }
}
