// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A boundary of a collision behaviour as given to the kernel: its segments carry the record's index as tag.
final class BoundaryRecord {
    enum Geometry: Hashable {
        case bounds(CGRect)
        case path([BezierPath.Element])
    }
    weak var behavior: CollisionBehavior?
    let owner: ObjectIdentifier
    let identifier: AnyHashable?
    let geometry: Geometry
    var shapes: [KernelShapeID] = []
    var group: UInt64 = 0

    init(behavior: CollisionBehavior, identifier: AnyHashable?, geometry: Geometry) {
        self.behavior = behavior
        owner = ObjectIdentifier(behavior)
        self.identifier = identifier
        self.geometry = geometry
    }
}

/// A touching pair as the delegate sees it: shapes of one item (or group) and one boundary are merged.
enum ContactKey: Hashable {
    case items(ObjectIdentifier, ObjectIdentifier, behavior: ObjectIdentifier)
    case boundary(ObjectIdentifier, record: Int32)

    func involves(_ keys: Set<ObjectIdentifier>) -> Bool {
        switch self {
        case let .items(a, b, _): keys.contains(a) || keys.contains(b)
        case let .boundary(a, _): keys.contains(a)
        }
    }
}

extension DynamicAnimator {
    /// Gives items in collision behaviours their shapes and group bits, and the behaviours' boundaries
    /// their segments (kept while unchanged, so contacts and events carry over).
    func syncCollisions(_ order: [DynamicBehavior]) {
        let collisions = order.compactMap { $0 as? CollisionBehavior }
        require(collisions.count <= 64, "an animator supports at most 64 CollisionBehaviors, got \(collisions.count)")
        var itemGroups: [ObjectIdentifier: UInt64] = [:], boundaryGroups: [ObjectIdentifier: UInt64] = [:]
        var members = Set<ObjectIdentifier>()
        for (k, behavior) in collisions.enumerated() {
            let bit: UInt64 = 1 << UInt64(k)
            for item in behavior.items {
                let key = ObjectIdentifier(item)
                members.insert(key)
                if behavior.collisionMode.contains(.items) { itemGroups[key, default: 0] |= bit }
                if behavior.collisionMode.contains(.boundaries) { boundaryGroups[key, default: 0] |= bit }
            }
        }
        var ids: [ItemID] = [], ig: [UInt64] = [], bg: [UInt64] = []
        do {
            for key in entryOrder {
                let entry = entries[key]!
                let wanted = members.contains(key)
                if wanted && !entry.collides {
                    try addShapes(for: entry)
                    entry.collides = true
                } else if !wanted && entry.collides {
                    world.kernel.destroyShapes(of: entry.id)
                    entry.collides = false
                }
                if wanted {
                    ids.append(entry.id)
                    ig.append(itemGroups[key] ?? 0)
                    bg.append(boundaryGroups[key] ?? 0)
                }
            }
            try world.kernel.setItemShapeGroups(items: ids, itemGroups: ig, boundaryGroups: bg)
            try syncBoundaries(collisions)
        } catch {
            fatalError("collision shapes: \(error)")
        }
        // Contacts of items that left a behaviour (or of removed boundaries) no longer count as touching.
        let byID = Dictionary(uniqueKeysWithValues: collisions.map { (ObjectIdentifier($0), $0) })
        touching = touching.filter { key, _ in
            switch key {
            case let .items(a, b, behavior):
                guard let c = byID[behavior] else { return false }
                return c.collisionMode.contains(.items) && c.contains(a) && c.contains(b)
            case let .boundary(a, record):
                guard Int(record) < boundaryRecords.count, let owner = boundaryRecords[Int(record)]?.behavior else {
                    return false
                }
                return owner.collisionMode.contains(.boundaries) && owner.contains(a)
            }
        }
    }

    private func addShapes(for entry: AnimatorEntry) throws(DynamicsError) {
        let parts: [(item: any DynamicItem, offset: CGPoint, angle: CGFloat)] = entry.members.isEmpty
            ? [(entry.item, .zero, 0)]
            : entry.members.map { ($0.item, CGPoint(x: $0.offset.dx, y: $0.offset.dy), $0.angle) }
        for part in parts {
            let geometry: KernelGeometry
            do {
                geometry = try Self.collisionShape(of: part.item).kernelGeometry(offset: part.offset, angle: part.angle)
                _ = try world.kernel.createShape(item: entry.id, geometry: geometry, itemGroups: 0, boundaryGroups: 0)
            } catch {
                fatalError("the collisionBoundingPath of \(part.item.messageName) is not a convex polygon of 3…16 "
                                    + "vertices: \(error)")
            }
        }
    }

    /// The collision outline of an item from its bounds and `collisionBoundsType`.
    static func collisionShape(of item: any DynamicItem) -> CollisionShape {
        let size = item.bounds.size
        switch item.collisionBoundsType {
        case .rectangle: return .rectangle(width: size.width, height: size.height)
        case .ellipse: return .ellipse(width: size.width, height: size.height)
        case .path:
            return .polygon(item.pathOutline)
        }
    }

    private func syncBoundaries(_ collisions: [CollisionBehavior]) throws(DynamicsError) {
        var wanted: [(CollisionBehavior, AnyHashable?, BoundaryRecord.Geometry, UInt64)] = []
        for (k, behavior) in collisions.enumerated() {
            let bit: UInt64 = 1 << UInt64(k)
            if let insets = behavior.referenceInsets, let bounds = referenceBounds {
                let rect = CGRect(x: bounds.minX + insets.left, y: bounds.minY + insets.top,
                                  width: bounds.width - insets.left - insets.right,
                                  height: bounds.height - insets.top - insets.bottom)
                wanted.append((behavior, nil, .bounds(rect), bit))
            }
            for boundary in behavior.boundaries {
                wanted.append((behavior, boundary.identifier, .path(boundary.path.elements), bit))
            }
        }
        var keep = Set<Int>()
        for (behavior, identifier, geometry, bit) in wanted {
            let owner = ObjectIdentifier(behavior)
            if let i = boundaryRecords.firstIndex(where: {
                $0?.owner == owner && $0?.identifier == identifier && $0?.geometry == geometry && $0?.behavior != nil
            }), let record = boundaryRecords[i] {
                keep.insert(i)
                if record.group != bit {
                    for shape in record.shapes { world.kernel.setShapeGroups(shape, itemGroups: bit, boundaryGroups: 0) }
                    record.group = bit
                }
                continue
            }
            let record = BoundaryRecord(behavior: behavior, identifier: identifier, geometry: geometry)
            record.group = bit
            let slot = boundaryRecords.firstIndex { $0 == nil } ?? boundaryRecords.count
            if slot == boundaryRecords.count { boundaryRecords.append(nil) }
            boundaryRecords[slot] = record
            keep.insert(slot)
            let path: BezierPath
            switch geometry {
            case let .bounds(rect): path = BezierPath(rect: rect)
            case .path: path = behavior.boundaries.first { $0.identifier == identifier }!.path
            }
            for s in path.segments() {
                let geometry = KernelGeometry.segment(s.start, s.end, previous: s.previous, next: s.next)
                record.shapes.append(try world.kernel.createShape(item: nil, geometry: geometry, itemGroups: bit,
                                                                  boundaryGroups: 0, tag: Int32(slot)))
            }
        }
        for i in boundaryRecords.indices where !keep.contains(i) {
            guard let record = boundaryRecords[i] else { continue }
            for shape in record.shapes { world.kernel.destroyShape(shape) }
            boundaryRecords[i] = nil
        }
    }

    /// Turns the kernel's shape events into delegate calls: began when an item and a boundary (or two items
    /// of a shared behaviour) start touching through any of their shapes, ended when the last stops.
    func deliverContactEvents() {
        let events = world.kernel.contactEvents()
        guard !events.isEmpty else { return }
        var collisions: [CollisionBehavior] = []
        for behavior in behaviors { behavior.forEachInTree { if let c = $0 as? CollisionBehavior { collisions.append(c) } } }
        for event in events {
            let keyA = event.itemA.flatMap { keyOfID[$0] }, keyB = event.itemB.flatMap { keyOfID[$0] }
            // An item of this animator that was removed has no key any more: its contacts are gone with it.
            if (event.itemA != nil && keyA == nil) || (event.itemB != nil && keyB == nil) { continue }
            if let keyA, let keyB, let a = entries[keyA]?.item, let b = entries[keyB]?.item {
                // A behaviour removed by an earlier callback of this step gets no more of them.
                for behavior in collisions where behavior.dynamicAnimator === self && behavior.collisionMode.contains(.items)
                    && behavior.contains(keyA) && behavior.contains(keyB)
                {
                    let key = ContactKey.items(min(keyA, keyB), max(keyA, keyB), behavior: ObjectIdentifier(behavior))
                    guard transition(key, began: event.began) else { continue }
                    if event.began {
                        behavior.collisionDelegate?.collisionBehavior(behavior, beganContactFor: a, with: b, at: event.point)
                    } else {
                        behavior.collisionDelegate?.collisionBehavior(behavior, endedContactFor: a, with: b)
                    }
                }
            } else if let itemKey = keyA ?? keyB, let item = entries[itemKey]?.item {
                let tag = keyA != nil ? event.tagB : event.tagA
                guard tag >= 0, Int(tag) < boundaryRecords.count, let record = boundaryRecords[Int(tag)],
                      let behavior = record.behavior, behavior.dynamicAnimator === self,
                      transition(.boundary(itemKey, record: tag), began: event.began)
                else { continue }
                // Both spellings of the boundary methods: the Swift one and UIKit's NSCopying one.
                let copying = record.identifier.map(BoundaryIdentifier.copying)
                if event.began {
                    behavior.collisionDelegate?.collisionBehavior(behavior, beganContactFor: item,
                                                                  withBoundaryIdentifier: record.identifier, at: event.point)
                    behavior.collisionDelegate?.collisionBehavior(behavior, beganContactFor: item,
                                                                  withBoundaryIdentifier: copying, at: event.point)
                } else {
                    behavior.collisionDelegate?.collisionBehavior(behavior, endedContactFor: item,
                                                                  withBoundaryIdentifier: record.identifier)
                    behavior.collisionDelegate?.collisionBehavior(behavior, endedContactFor: item,
                                                                  withBoundaryIdentifier: copying)
                }
            }
        }
    }

    /// Counts touching shape pairs per key; true when the count leaves or reaches zero.
    private func transition(_ key: ContactKey, began: Bool) -> Bool {
        let count = touching[key] ?? 0
        if began {
            touching[key] = count + 1
            return count == 0
        }
        guard count > 0 else { return false }
        touching[key] = count == 1 ? nil : count - 1
        return count == 1
    }
}
