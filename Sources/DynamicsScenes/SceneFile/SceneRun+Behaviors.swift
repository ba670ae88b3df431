// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneRun {
    /// The collision behaviours: a shape for every item one holds, filters from their groups (behaviour k
    /// is group k), and their boundaries.
    func buildCollisions() throws(DynamicsError) {
        var collisions: [SceneCollision] = []
        for b in document.behaviors {
            guard case .collision(let c) = b.kind else { continue }
            if let id = b.id { collisionIndex[id] = collisions.count }
            collisions.append(c)
        }
        self.collisions = collisions
        itemGroups = [UInt64](repeating: 0, count: itemIDs.count)
        boundaryGroups = itemGroups
        guard !collisions.isEmpty else { return }
        for (k, c) in collisions.enumerated() {
            let bit: UInt64 = 1 << UInt64(k)
            for i in indices(of: c.targets) {
                if c.mode != .boundaries { itemGroups[i] |= bit }
                if c.mode != .items { boundaryGroups[i] |= bit }
            }
        }
        try addShapes(itemIDs.indices)
        for (k, c) in collisions.enumerated() {
            var made: [BoundaryID] = []
            if c.boundsAsBoundary, let b = document.bounds {
                let r = CGRect(x: b.minX + c.insets.left, y: b.minY + c.insets.top,
                               width: b.width - c.insets.left - c.insets.right, height: b.height - c.insets.top - c.insets.bottom)
                made += try world.addBoundary(BezierPath(rect: r), group: k)  // no identifier, as UIKit's
            }
            for boundary in c.boundaries {
                var ids: [BoundaryID] = []
                switch boundary.shape {
                case .segment(let from, let to):
                    ids = [try world.addBoundary(from: from, to: to, group: k)]
                case .path(let points, let closed):
                    let path = BezierPath()
                    path.move(to: points[0])
                    for p in points.dropFirst() { path.addLine(to: p) }
                    if closed { path.close() }
                    ids = try world.addBoundary(path, group: k)
                case .arc(let center, let radius, let start, let end, let clockwise):
                    let path = BezierPath(arcCenter: center, radius: radius, startAngle: start, endAngle: end, clockwise: clockwise)
                    ids = try world.addBoundary(path, group: k)
                }
                for id in ids { boundaryNames[id] = boundary.id }
                made += ids
            }
            collisionBoundaries.append(made)
        }
    }

    /// Gives the items at `rows` that a collision behaviour holds their shapes, in creation order, one call per
    /// run of items sharing shape and filter.
    func addShapes(_ rows: Range<Int>) throws(DynamicsError) {
        // One behaviour over every item colliding with everything: the default filter.
        let simple = collisions.count == 1 && collisions[0]?.mode == .everything
        var start = 0
        let held = rows.filter { itemGroups[$0] | boundaryGroups[$0] != 0 }
        while start < held.count {
            let i = held[start]
            let filter = simple && exclusionGroups[i] == 0 ? CollisionFilter.all
                : CollisionFilter(itemGroups: itemGroups[i], boundaryGroups: boundaryGroups[i], exclusionGroup: exclusionGroups[i])
            var end = start + 1
            while end < held.count, shapes[held[end]] == shapes[i], exclusionGroups[held[end]] == exclusionGroups[i],
                  simple || (itemGroups[held[end]] == itemGroups[i] && boundaryGroups[held[end]] == boundaryGroups[i])
            {
                end += 1
            }
            let com = shapes[i].centerOfMass
            for part in shapes[i].parts {
                try world.addCollisionShape(Self.collisionShape(part.shape),
                                            offset: CGPoint(x: part.offset.x - com.x, y: part.offset.y - com.y), angle: part.angle,
                                            filter: filter, to: held[start..<end].map { itemIDs[$0] })
            }
            start = end
        }
    }

    /// Removes collision behaviour k (a timeline event): its boundaries go, and its items stop colliding
    /// through it (an item it alone held keeps its shape and collides with nothing).
    func removeCollision(_ k: Int) throws(DynamicsError) {
        for id in collisionBoundaries[k] {
            try world.removeBoundary(id)
            boundaryNames[id] = nil
        }
        collisionBoundaries[k] = []
        collisions[k] = nil
        let bit: UInt64 = 1 << UInt64(k)
        var changed: [Int] = []
        for i in itemIDs.indices where !isRemoved[i] && (itemGroups[i] | boundaryGroups[i]) & bit != 0 {
            itemGroups[i] &= ~bit
            boundaryGroups[i] &= ~bit
            changed.append(i)
        }
        // One call per run of items left with the same groups.
        var start = 0
        while start < changed.count {
            let i = changed[start]
            var end = start + 1
            while end < changed.count, itemGroups[changed[end]] == itemGroups[i], boundaryGroups[changed[end]] == boundaryGroups[i],
                  exclusionGroups[changed[end]] == exclusionGroups[i]
            {
                end += 1
            }
            try world.setCollisionFilter(CollisionFilter(itemGroups: itemGroups[i], boundaryGroups: boundaryGroups[i],
                                                         exclusionGroup: exclusionGroups[i]),
                                         for: changed[start..<end].map { itemIDs[$0] })
            start = end
        }
    }

    static func collisionShape(_ shape: SceneShape) -> CollisionShape {
        switch shape {
        case .rectangle(let w, let h): .rectangle(width: w, height: h)
        case .ellipse(let w, let h): .ellipse(width: w, height: h)
        case .polygon(let points): .polygon(points)
        case .capsule(let w, let h): .capsule(width: w, height: h)
        case .roundedRectangle(let w, let h, let r): .roundedRectangle(width: w, height: h, cornerRadius: r)
        case .roundedPolygon(let points, let r): .roundedPolygon(points, radius: r)
        case .group: fatalError("a group's parts are added one by one")
        }
    }

    /// Starts a behaviour: makes its attachment, fires its instantaneous push, sets its snap. Gravity, pushes
    /// and materials are summed over the live behaviours by ``applyAggregates()``.
    func add(_ behavior: SceneBehavior) throws(DynamicsError) {
        var entry = LiveBehavior(behavior: behavior)
        switch behavior.kind {
        case .attachment(let a):
            let item = itemIDs[index[a.item]!]
            let other = a.other.map { itemIDs[index[$0]!] }
            let itemAnchor: CGPoint
            switch a.kind {
            case .rod, .rope: itemAnchor = a.itemAnchor ?? world.pose(of: item).center
            case .pin, .weld, .slider: itemAnchor = a.itemAnchor ?? a.anchor
            }
            entry.attachment = try world.addAttachments(a.kind, items: [item], to: [other], anchors: [a.anchor],
                                                        itemAnchors: [itemAnchor], itemsCollide: a.collide)[0]
            entry.length = hypot(itemAnchor.x - a.anchor.x, itemAnchor.y - a.anchor.y)
            if case .rod(let length?, _, _) = a.kind { entry.length = length }
            if case .rope(let length?) = a.kind { entry.length = length }
        case .snap(let item, let point, let ratio, let frequency):
            try world.setSnap(to: point, frequency: frequency, dampingRatio: ratio, for: [itemIDs[index[item]!]])
        case .field(let f):
            entry.field = try world.addField(f.resolved, for: indices(of: f.targets).map { itemIDs[$0] })
        case .push(var p) where p.instantaneous && p.active:
            try world.applyImpulse(p.vector, at: p.offset, for: indices(of: p.targets).map { itemIDs[$0] })
            p.active = false
            entry.behavior.kind = .push(p)
        default:
            break
        }
        live.append(entry)
    }

    /// Ends a behaviour: removes its attachment or snap; the sums follow in ``applyAggregates()``.
    func remove(at k: Int) throws(DynamicsError) {
        let entry = live.remove(at: k)
        if let id = entry.attachment { try world.removeAttachments([id]) }
        if let id = entry.field { try world.removeField(id) }
        if case .snap(let item, let point, _, _) = entry.behavior.kind {
            try world.setSnap(to: point, frequency: 0, dampingRatio: 0, for: [itemIDs[index[item]!]])
        }
    }

    /// Gravity, continuous pushes and item behaviours' materials, summed over the live behaviours and written
    /// for the items they touch (and for those they no longer touch); only for the items at `rows` when given
    /// (items just made).
    func applyAggregates(only rows: Range<Int>? = nil) throws(DynamicsError) {
        let n = itemIDs.count
        var gx = [Float](repeating: 0, count: n), gy = gx, fx = gx, fy = gx, tc = gx, td = gx
        var anyGravity = false, anyForce = false
        var materials = base
        func chosen(_ targets: SceneTargets) -> [Int] {
            guard let rows else { return indices(of: targets) }
            return indices(of: targets).filter { rows.contains($0) }
        }
        for entry in live {
            switch entry.behavior.kind {
            case .gravity(let direction, let targets):
                anyGravity = true
                for i in chosen(targets) {
                    gx[i] += Float(1000 * direction.dx)
                    gy[i] += Float(1000 * direction.dy)
                }
            case .push(let p) where !p.instantaneous && p.active:
                anyForce = true
                let o = p.offset, f = p.vector
                for i in chosen(p.targets) {
                    fx[i] += Float(f.dx)
                    fy[i] += Float(f.dy)
                    tc[i] += Float(o.horizontal * f.dy - o.vertical * f.dx)
                    td[i] += Float(o.horizontal * f.dx + o.vertical * f.dy)
                }
            case .item(let b):
                for i in chosen(b.targets) { Self.override(&materials[i], with: b) }
            default:
                break
            }
        }
        let written = (rows.map(Array.init) ?? Array(itemIDs.indices)).filter { !isRemoved[$0] }
        let ids = written.count == n ? itemIDs : written.map { itemIDs[$0] }
        func pick(_ v: [Float]) -> [Float] { written.count == n ? v : written.map { v[$0] } }
        if anyGravity || gravitySet { try world.setGravity(x: pick(gx), y: pick(gy), for: ids) }
        if anyForce || (forcesSet && rows == nil) {
            try world.setForces(x: pick(fx), y: pick(fy), torqueCross: pick(tc), torqueDot: pick(td), for: ids)
        }
        if rows == nil {
            gravitySet = anyGravity
            forcesSet = anyForce
        }
        try writeMaterials(materials, rows: written)
    }

    static func override(_ m: inout SceneMaterial, with b: SceneItemBehavior) {
        if let x = b.density { m.density = x }
        if let x = b.elasticity { m.elasticity = x }
        if let x = b.friction { m.friction = x }
        if let x = b.resistance { m.resistance = x }
        if let x = b.angularResistance { m.angularResistance = x }
        if let x = b.charge { m.charge = x }
        if let x = b.anchored { m.anchored = x }
        if let x = b.allowsRotation { m.allowsRotation = x }
        if let x = b.kinematic { m.kinematic = x }
    }

    /// Writes the materials that differ from those last written, one call per distinct value.
    func writeMaterials(_ materials: [SceneMaterial], rows: [Int]) throws(DynamicsError) {
        var changed: [SceneMaterial: [Int]] = [:]
        for i in rows where materials[i] != applied[i] { changed[materials[i], default: []].append(i) }
        for (m, rows) in changed.sorted(by: { $0.value[0] < $1.value[0] }) {
            let ids = rows.map { itemIDs[$0] }
            try world.setResistance(m.resistance, angular: m.angularResistance, for: ids)
            try world.setMaterial(elasticity: m.elasticity, friction: m.friction, charge: m.charge, for: ids)
            // Mass properties where density, anchoring or kinematics changed, one call per run of items of one shape.
            let massive = rows.filter {
                (applied[$0].density, applied[$0].anchored, applied[$0].allowsRotation, applied[$0].kinematic) !=
                    (m.density, m.anchored, m.allowsRotation, m.kinematic)
            }
            var start = 0
            while start < massive.count {
                var end = start + 1
                while end < massive.count, shapes[massive[end]] == shapes[massive[start]] { end += 1 }
                try world.setMassProperties(Self.description(shapes[massive[start]], m),
                                            for: massive[start..<end].map { itemIDs[$0] })
                start = end
            }
            for i in rows { applied[i] = m }
        }
    }
}
