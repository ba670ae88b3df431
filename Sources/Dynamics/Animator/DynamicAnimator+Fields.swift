// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicAnimator {
    /// Creates, updates and removes the world's fields to match the built-in field behaviours of the tree,
    /// and collects the custom ones.
    func syncFields(_ order: [DynamicBehavior]) {
        let fields = order.compactMap { $0 as? FieldBehavior }
        customFields = fields.filter { $0.evaluationBlock != nil }
        var live = Set<ObjectIdentifier>()
        do {
            for field in fields where field.evaluationBlock == nil {
                let key = ObjectIdentifier(field)
                live.insert(key)
                let ids = field.items.compactMap { entries[ObjectIdentifier($0)]?.id }
                guard var record = fieldRecords[key] else {
                    let id = try world.addField(field.fieldDescription, for: ids)
                    fieldRecords[key] = FieldRecord(id: id, description: field.fieldDescription, items: Set(ids))
                    continue
                }
                if record.description != field.fieldDescription {
                    try world.updateField(record.id, field.fieldDescription)
                    record.description = field.fieldDescription
                }
                let wanted = Set(ids)
                let gone = record.items.subtracting(wanted).filter { world.contains($0) }
                try world.removeItems(Array(gone), fromField: record.id)
                try world.addItems(ids.filter { !record.items.contains($0) }, toField: record.id)
                record.items = wanted
                fieldRecords[key] = record
            }
            for (key, record) in fieldRecords where !live.contains(key) {
                try world.removeField(record.id)
                fieldRecords[key] = nil
            }
        } catch {
            fatalError("DynamicAnimator could not apply its fields: \(error)")
        }
    }

    /// Calls every custom field's block for its items inside its region (one batch per field per step,
    /// on this thread) and gives the world the summed forces for the coming step.
    func applyCustomFields() throws(DynamicsError) {
        guard !customFields.isEmpty || !customForceIDs.isEmpty else { return }
        var order: [ItemID] = []
        var force: [ItemID: CGVector] = [:]
        for id in customForceIDs where world.contains(id) {  // last step's items fall back to zero
            force[id] = .zero
            order.append(id)
        }
        let dt = world.configuration.stepDuration
        for field in customFields {
            guard let block = field.evaluationBlock else { continue }
            let ids = field.items.compactMap { entries[ObjectIdentifier($0)]?.id }
            let states = state(of: ids)
            for (id, s) in zip(ids, states) {
                let c = CGPoint(x: s.x, y: s.y)
                guard field.region.contains(CGPoint(x: c.x - field.position.x, y: c.y - field.position.y)) else {
                    continue
                }
                let f = block(field, c, CGVector(dx: s.vx, dy: s.vy), s.mass, s.charge, dt)
                require(f.dx.isFinite && f.dy.isFinite && abs(f.dx) <= 1e12 && abs(f.dy) <= 1e12,
                        "a custom field's evaluation block returned \(f); forces must be finite and within ±1e12 N")
                if force[id] == nil { order.append(id) }
                let old = force[id] ?? .zero
                force[id] = CGVector(dx: old.dx + f.dx, dy: old.dy + f.dy)
            }
        }
        customForceIDs = order.filter { force[$0] != .zero }
        try world.setCustomFieldForces(x: order.map { Float(force[$0]!.dx) }, y: order.map { Float(force[$0]!.dy) },
                                       for: order)
    }

    /// Centre (pt), velocity (pt/s), mass and charge of items, read from the world's columns.
    private func state(of ids: [ItemID]) -> [(x: CGFloat, y: CGFloat, vx: CGFloat, vy: CGFloat, mass: CGFloat,
                                              charge: CGFloat)] {
        let rows = world.kernel.rows(of: ids).map(Int.init)
        func read(_ column: KernelColumn) -> [CGFloat] {
            world.kernel.withColumn(column) { values in rows.map { CGFloat(values[$0]) } }
        }
        let (x, y, vx, vy) = (read(.positionX), read(.positionY), read(.velocityX), read(.velocityY))
        let (m, q) = (read(.mass), read(.charge))
        return rows.indices.map { (x[$0], y[$0], vx[$0], vy[$0], m[$0], q[$0]) }
    }
}
