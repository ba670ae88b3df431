// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneRun {
    /// Makes an instance of `template` named `instance` with its origin at `origin` (pt), in place of an
    /// instance of that name: its items join the collision behaviours, gravity, pushes, item behaviours and
    /// fields whose targets hold them, and its attachments join them.
    func make(_ template: SceneTemplate, instance: String, origin: CGPoint) throws(DynamicsError) {
        guard let items = templateItems[template.id] else { return }
        if instances[instance] != nil { try removeInstance(instance) }
        let first = itemIDs.count
        var made: [ItemID] = []
        // Consecutive items of one description are made in one call, as the scene's own.
        var start = 0
        let descriptions = items.map { Self.description($0.shape, $0.material) }
        while start < items.count {
            var end = start + 1
            while end < items.count, descriptions[end] == descriptions[start] { end += 1 }
            let run = items[start..<end]
            let centers = run.map { item in
                Self.position(of: item.shape, at: CGPoint(x: origin.x + item.center.x, y: origin.y + item.center.y), angle: item.angle)
            }
            made += try world.createItems(descriptions[start], at: centers, angles: run.map(\.angle))
            start = end
        }
        for (k, item) in items.enumerated() {
            let i = first + k, name = "\(instance)/\(item.id)"
            itemNames.append(name)
            itemIDs.append(made[k])
            isRemoved.append(false)
            shapes.append(item.shape)
            base.append(item.material)
            applied.append(item.material)
            exclusionGroups.append(item.exclusionGroup)
            index[name] = i
            for tag in [template.id, instance] + template.tags + item.tags { tags[tag, default: []].append(i) }
        }
        let rows = first..<itemIDs.count
        instances[instance] = rows
        let moving = items.indices.filter { items[$0].velocity != CGVector(dx: 0, dy: 0) || items[$0].angularVelocity != 0 }
        if !moving.isEmpty {
            try world.setVelocities(moving.map { items[$0].velocity }, angular: moving.map { items[$0].angularVelocity },
                                    for: moving.map { made[$0] })
        }
        try joinCollisions(rows)
        for a in template.attachments { try attach(a, of: instance, origin: origin) }
        for entry in live {
            guard case .field(let f) = entry.behavior.kind, let id = entry.field else { continue }
            let members = indices(of: f.targets).filter { rows.contains($0) }
            if !members.isEmpty { try world.addItems(members.map { itemIDs[$0] }, toField: id) }
        }
        try applyAggregates(only: rows)
    }

    /// Gives the items at `rows` the groups of the collision behaviours whose targets hold them, and their shapes.
    func joinCollisions(_ rows: Range<Int>) throws(DynamicsError) {
        itemGroups += Array(repeating: 0, count: rows.count)
        boundaryGroups += Array(repeating: 0, count: rows.count)
        for (k, c) in collisions.enumerated() {
            guard let c else { continue }
            let bit: UInt64 = 1 << UInt64(k)
            for i in indices(of: c.targets) where rows.contains(i) {
                if c.mode != .boundaries { itemGroups[i] |= bit }
                if c.mode != .items { boundaryGroups[i] |= bit }
            }
        }
        try addShapes(rows)
    }

    /// Makes a template's attachment between the items of `instance`, its anchors moved by `origin`.
    func attach(_ a: SceneAttachment, of instance: String, origin: CGPoint) throws(DynamicsError) {
        func moved(_ p: CGPoint) -> CGPoint { CGPoint(x: origin.x + p.x, y: origin.y + p.y) }
        guard let k = index["\(instance)/\(a.item)"] else { return }
        let item = itemIDs[k]
        let other = a.other.flatMap { index["\(instance)/\($0)"] }.map { itemIDs[$0] }
        let anchor = moved(a.anchor)
        let itemAnchor: CGPoint
        switch a.kind {
        case .rod, .rope: itemAnchor = a.itemAnchor.map(moved) ?? world.pose(of: item).center
        case .pin, .weld, .slider: itemAnchor = a.itemAnchor.map(moved) ?? anchor
        }
        _ = try world.addAttachments(a.kind, items: [item], to: [other], anchors: [anchor], itemAnchors: [itemAnchor],
                                     itemsCollide: a.collide)
    }

    /// Removes the items of the template instance named `name` (their shapes and attachments go with them);
    /// nothing when there is none.
    func removeInstance(_ name: String) throws(DynamicsError) {
        guard let rows = instances.removeValue(forKey: name) else { return }
        try world.removeItems(rows.map { itemIDs[$0] })
        for i in rows {
            isRemoved[i] = true
            index[itemNames[i]] = nil
        }
    }
}
