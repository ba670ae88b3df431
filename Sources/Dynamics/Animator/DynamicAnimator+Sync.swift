// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicAnimator {
    /// Reads the behaviour tree into the world: registers new items, drops items no behaviour holds,
    /// and writes each item's gravity, push forces, resistance, snap spring and material (the last item
    /// behaviour in depth-first order wins), then fires instantaneous pushes and pending velocities.
    func sync() {
        needsSync = false
        let (order, material) = syncItems()

        syncCollisions(order)
        syncAttachments(order)
        syncFields(order)
        let keys = entryOrder
        let index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        let n = keys.count
        var gx = [Float](repeating: 0, count: n), gy = gx, fx = gx, fy = gx, tc = gx, td = gx
        var snapX = gx, snapY = gx, omega = gx, zeta = gx
        var impulses: [(key: ObjectIdentifier, p: CGVector, offset: Offset)] = []
        var fired: [PushBehavior] = []
        for behavior in order {
            switch behavior {
            case let g as GravityBehavior:
                for item in g.items {
                    let i = index[ObjectIdentifier(item)]!
                    gx[i] += Float(1000 * g.gravityDirection.dx)
                    gy[i] += Float(1000 * g.gravityDirection.dy)
                }
            case let p as PushBehavior where p.active:
                let f = p.pushDirection
                for item in p.items {
                    let o = p.targetOffsetFromCenter(for: item)
                    let i = index[ObjectIdentifier(item)]!
                    if p.mode == .instantaneous {
                        impulses.append((ObjectIdentifier(item), f, o))
                        continue
                    }
                    fx[i] += Float(f.dx)
                    fy[i] += Float(f.dy)
                    tc[i] += Float(o.horizontal * f.dy - o.vertical * f.dx)
                    td[i] += Float(o.horizontal * f.dx + o.vertical * f.dy)
                }
                if p.mode == .instantaneous { fired.append(p) }
            case let s as SnapBehavior:
                let i = index[ObjectIdentifier(s.item)]!
                (snapX[i], snapY[i]) = (Float(s.snapPoint.x), Float(s.snapPoint.y))
                omega[i] = Float(2 * .pi * SnapBehavior.frequency)
                zeta[i] = Float(s.dampingRatio)
            default:
                break
            }
        }

        let ids = keys.map { entries[$0]!.id }
        var linear = [Float](repeating: 0, count: n), angular = linear
        var elasticity = linear, friction = linear, charge = linear
        do {
            for (i, key) in keys.enumerated() {
                let entry = entries[key]!
                let m = material[key]
                (linear[i], angular[i]) = (Float(m?.resistance ?? 0), Float(m?.angularResistance ?? 0))
                (elasticity[i], friction[i], charge[i]) = (Float(m?.elasticity ?? 0), Float(m?.friction ?? 0),
                                                           Float(m?.charge ?? 0))
                var wanted = Self.description(from: m)
                wanted.shape = entry.massDescription.shape
                if wanted.density != entry.massDescription.density {
                    if let group = entry.item as? DynamicItemGroup {
                        wanted.shape = Self.compound(group, density: wanted.density).shape
                    } else if entry.item.collisionBoundsType == .path {
                        wanted.shape = Self.shape(of: entry.item, density: wanted.density)
                    }
                }
                if wanted != entry.massDescription {
                    try world.setMassProperties(wanted, for: [entry.id])
                    entry.massDescription = wanted
                }
            }
            try world.setGravity(x: gx, y: gy, for: ids)
            try world.setForces(x: fx, y: fy, torqueCross: tc, torqueDot: td, for: ids)
            try world.setResistance(linear: linear, angular: angular, for: ids)
            try world.setMaterials(elasticity: elasticity, friction: friction, charge: charge, for: ids)
            try world.setSnaps(x: snapX, y: snapY, omega: omega, zeta: zeta, for: ids)
            for impulse in impulses {
                try world.applyImpulse(impulse.p, at: impulse.offset, for: [entries[impulse.key]!.id])
            }
            for behavior in order {
                guard let b = behavior as? DynamicItemBehavior, !b.pendingVelocities.isEmpty else { continue }
                for item in b.items {
                    guard let v = b.pendingVelocities[ObjectIdentifier(item)], let entry = entry(for: item) else { continue }
                    try world.addVelocity(CGVector(dx: v.linear.x, dy: v.linear.y), angular: v.angular, for: [entry.id])
                }
                b.pendingVelocities = [:]
            }
        } catch {
            fatalError("DynamicAnimator could not apply its behaviours: \(error)")
        }
        for push in fired { push.didFire() }
    }

    /// Registers items that behaviours hold and drops those none holds. Returns the behaviours in
    /// depth-first order and, per item, the last DynamicItemBehavior holding it.
    @discardableResult
    func syncItems() -> (order: [DynamicBehavior], material: [ObjectIdentifier: DynamicItemBehavior]) {
        var order: [DynamicBehavior] = []
        for behavior in behaviors { behavior.forEachInTree { order.append($0) } }
        var material: [ObjectIdentifier: DynamicItemBehavior] = [:]
        var referenced: [ObjectIdentifier: any DynamicItem] = [:]
        var referenceOrder: [ObjectIdentifier] = []
        for behavior in order {
            for item in behavior.directItems {
                let key = ObjectIdentifier(item)
                if referenced.updateValue(item, forKey: key) == nil { referenceOrder.append(key) }
                if let b = behavior as? DynamicItemBehavior { material[key] = b }
            }
        }
        unregister(entryOrder.filter { referenced[$0] == nil })
        for key in referenceOrder where entries[key] == nil {
            register(referenced[key]!, material: Self.description(from: material[key]))
        }
        return (order, material)
    }

    /// The material part of an item description from an item behaviour (defaults when nil).
    static func description(from behavior: DynamicItemBehavior?) -> ItemDescription {
        var d = ItemDescription()
        guard let b = behavior else { return d }
        d.density = b.density
        d.isAnchored = b.isAnchored
        d.isKinematic = b.isKinematic
        d.allowsRotation = b.allowsRotation
        d.resistance = b.resistance
        d.angularResistance = b.angularResistance
        d.elasticity = b.elasticity
        d.friction = b.friction
        d.charge = b.charge
        return d
    }
}
