// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicWorld {
    /// Adds a built-in field acting on `ids` and returns its id. A world holds at most 64 fields at
    /// once. Throws, adding nothing, on a bad property (naming it) or a stale id.
    ///
    /// ```swift
    /// var spring = FieldDescription(kind: .spring)
    /// spring.position = CGPoint(x: 200, y: 200)
    /// spring.region = Region(size: CGSize(width: 400, height: 400))
    /// let field = try world.addField(spring, for: ids)
    /// ```
    @discardableResult
    public func addField(_ description: FieldDescription, for ids: [ItemID] = []) throws(DynamicsError) -> FieldID {
        requireNoColumnView("addField")
        try validate(ids)
        let id = try kernel.createField(description)
        do {
            try kernel.setFieldMembers(id, items: ids, member: true)
        } catch {
            try? kernel.removeField(id)
            throw error
        }
        return id
    }

    /// Replaces every property of a field, from the next step. The field's items wake.
    public func updateField(_ id: FieldID, _ description: FieldDescription) throws(DynamicsError) {
        requireNoColumnView("updateField")
        _ = try description.kernelDef()  // validate first: the region call below is the only other failure
        try kernel.setRegion(description.region, of: id)
        try kernel.setField(id, description)
    }

    /// Adds items to a field (items already in it stay). Wakes them.
    public func addItems(_ ids: [ItemID], toField id: FieldID) throws(DynamicsError) {
        requireNoColumnView("addItems(_:toField:)")
        try validate(ids)
        try kernel.setFieldMembers(id, items: ids, member: true)
    }

    /// Removes items from a field (items not in it are ignored). Wakes them.
    public func removeItems(_ ids: [ItemID], fromField id: FieldID) throws(DynamicsError) {
        requireNoColumnView("removeItems(_:fromField:)")
        try validate(ids)
        try kernel.setFieldMembers(id, items: ids, member: false)
    }

    /// Removes a field. Its items wake.
    public func removeField(_ id: FieldID) throws(DynamicsError) {
        requireNoColumnView("removeField")
        try kernel.removeField(id)
    }

    /// Whether `item` is one of the field's items.
    public func isItem(_ item: ItemID, inField id: FieldID) -> Bool { kernel.isFieldMember(id, item: item) }

    /// The number of fields.
    public var fieldCount: Int { kernel.fieldCount }

    /// Sets the force (UIKit newtons, a = 100·F/m) that custom fields exert on each item during the next
    /// steps, until set again; the first call turns the custom-force columns on. ``DynamicAnimator`` writes
    /// them before every step from the blocks of ``FieldBehavior/field(evaluationBlock:)``.
    public func setCustomFieldForces(x: [Float], y: [Float], for ids: [ItemID]) throws(DynamicsError) {
        requireNoColumnView("setCustomFieldForces")
        try validate(ids)
        for (name, values) in [("fieldForce.x", x), ("fieldForce.y", y)] {
            guard values.count == ids.count else {
                throw .invalidValue(field: "\(name).count", value: Double(values.count), index: nil)
            }
            for (k, v) in values.enumerated() where !v.isFinite {
                throw .invalidValue(field: name, value: Double(v), index: ids.count > 1 ? k : nil)
            }
        }
        kernel.setCustomFieldForces(true)
        try kernel.set(.fieldForceX, ids: ids, values: x)
        try kernel.set(.fieldForceY, ids: ids, values: y)
    }
}
