// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicAnimator {
    /// Re-reads `item`'s centre, rotation and size (a size change rebuilds its shape and mass) and resumes.
    /// Traps when the item is not in this animator.
    public func updateItem(usingCurrentState item: any DynamicItem) {
        require(!inStep, "DynamicAnimator.updateItem called during a step")
        guard let entry = entries[ObjectIdentifier(item)] else {
            fatalError("updateItem(usingCurrentState:): \(type(of: item)) is not in this animator")
        }
        Self.validate(item)
        do {
            try world.setPositions([item.center], angles: [item.rotationAngle], for: [entry.id])
            if entry.members.isEmpty {
                var description = entry.massDescription
                description.shape = Self.shape(of: item, density: description.density)
                if description != entry.massDescription {
                    try world.setMassProperties(description, for: [entry.id])
                    entry.massDescription = description
                }
            }
        } catch {
            fatalError("updateItem(usingCurrentState:): \(error)")
        }
        needsSync = true
        resume()
    }

    /// Velocity of an item (or of the group holding it) in pt/s, or nil when it is not in this animator.
    func velocity(of item: any DynamicItem) -> CGVector? {
        entry(for: item).map { world.velocity(of: $0.id) }
    }

    /// Angular velocity in rad/s, or nil when the item is not in this animator.
    func angularVelocity(of item: any DynamicItem) -> CGFloat? {
        entry(for: item).map { world.angularVelocity(of: $0.id) }
    }

    /// Adds velocity to a registered item and resumes; false when the item is not registered yet.
    func addVelocity(_ velocity: CGPoint, angular: CGFloat, to item: any DynamicItem) -> Bool {
        guard let entry = entry(for: item) else { return false }
        require(!inStep, "velocity added during a step")
        do {
            try world.addVelocity(CGVector(dx: velocity.x, dy: velocity.y), angular: angular, for: [entry.id])
        } catch {
            fatalError("addVelocity: \(error)")
        }
        resume()
        return true
    }

    func entry(for item: any DynamicItem) -> AnimatorEntry? {
        let key = ObjectIdentifier(item)
        return entries[key] ?? memberOf[key].flatMap { entries[$0] }
    }

    // MARK: registration

    /// Creates the kernel item for `item` with the given material; claims the item (and group members).
    func register(_ item: any DynamicItem, material: ItemDescription) {
        let key = ObjectIdentifier(item)
        let me = ObjectIdentifier(self)
        require(memberOf[key] == nil,
                     "\(type(of: item)) is a member of a DynamicItemGroup; add the group to behaviours, not its members")
        let group = item as? DynamicItemGroup
        for member in group?.items ?? [] {
            let m = ObjectIdentifier(member)
            require(entries[m] == nil && memberOf[m] == nil,
                         "\(type(of: member)) is in this animator on its own or in another group")
        }
        ItemOwnership.claim(key, for: me, name: "\(type(of: item))")
        for member in group?.items ?? [] { ItemOwnership.claim(ObjectIdentifier(member), for: me, name: "\(type(of: member))") }

        var description = material
        var members: [AnimatorEntry.Member] = []
        var position = item.center
        var angle = item.rotationAngle
        if let group {
            let placed = Self.compound(group, density: material.density)
            description.shape = placed.shape
            position = placed.center
            angle = 0
            group.bodyRotation = 0
            members = placed.members
            for member in group.items { memberOf[ObjectIdentifier(member)] = key }
        } else {
            Self.validate(item)
            description.shape = Self.shape(of: item, density: material.density)
        }
        do {
            let id = try world.createItems(description, at: [position], angles: [angle])[0]
            entries[key] = AnimatorEntry(item: item, id: id, members: members, massDescription: description)
            entryOrder.append(key)
            keyOfID[id] = key
        } catch {
            fatalError("\(type(of: item)) cannot join the animator: \(error)")
        }
    }

    /// Removes the kernel items of `keys` and releases their claims.
    func unregister(_ keys: [ObjectIdentifier]) {
        guard !keys.isEmpty else { return }
        let removed = keys.compactMap { entries[$0] }
        do {
            try world.removeItems(removed.map(\.id))
        } catch {
            fatalError("removing items: \(error)")
        }
        var released = keys
        for entry in removed {
            for member in entry.members {
                memberOf[ObjectIdentifier(member.item)] = nil
                released.append(ObjectIdentifier(member.item))
            }
        }
        for entry in removed { keyOfID[entry.id] = nil }
        for key in keys { entries[key] = nil }
        let leaving = Set(keys)
        touching = touching.filter { !$0.key.involves(leaving) }
        let gone = Set(keys)
        entryOrder.removeAll { gone.contains($0) }
        ItemOwnership.release(released, for: ObjectIdentifier(self))
    }

    /// Writes centre and rotation from the world to every item (members of groups included).
    func writeBack() {
        guard !entryOrder.isEmpty else { return }
        let ordered = entryOrder.map { entries[$0]! }
        let poses = world.kernel.packedPoses()
        let rows = world.kernel.rows(of: ordered.map(\.id))
        for (entry, row) in zip(ordered, rows) {
            require(row >= 0, "an item of this DynamicAnimator was removed from its world directly")
            let r = Int(row) * 3
            let (x, y, angle) = (CGFloat(poses[r]), CGFloat(poses[r + 1]), CGFloat(poses[r + 2]))
            if entry.members.isEmpty {
                entry.item.center = CGPoint(x: x, y: y)
                entry.item.transform = CGAffineTransform(rotationAngle: angle)
                continue
            }
            let (c, s) = (cos(angle), sin(angle))
            for member in entry.members {
                let o = member.offset
                member.item.center = CGPoint(x: x + c * o.dx - s * o.dy, y: y + s * o.dx + c * o.dy)
                member.item.transform = CGAffineTransform(rotationAngle: member.angle + angle)
            }
            (entry.item as? DynamicItemGroup)?.bodyRotation = angle
        }
    }

    // MARK: shapes

    static func validate(_ item: any DynamicItem) {
        let c = item.center, b = item.bounds.size, t = item.transform
        require(c.x.isFinite && c.y.isFinite, "the center of \(item.messageName) must be finite")
        require(b.width.isFinite && b.width > 0, "the bounds.width of \(item.messageName) must be > 0, got \(b.width)")
        require(b.height.isFinite && b.height > 0,
                     "the bounds.height of \(item.messageName) must be > 0, got \(b.height)")
        require([t.a, t.b, t.c, t.d].allSatisfy(\.isFinite), "the transform of \(item.messageName) must be finite")
    }

    static func shape(of item: any DynamicItem, density: CGFloat) -> ItemDescription.Shape {
        let size = item.bounds.size
        switch item.collisionBoundsType {
        case .ellipse: return .ellipse(width: size.width, height: size.height)
        case .rectangle: return .rectangle(width: size.width, height: size.height)
        case .path:
            require(item.pathOutline.count >= 3, "the collisionBoundingPath of \(item.messageName) has no outline")
            let (area, polar) = item.areaMoments
            require(area > 0, "the collisionBoundingPath of \(item.messageName) encloses no area")
            return .compound(mass: density * area / 10_000, inertia: density * polar / 10_000,
                             width: size.width, height: size.height)
        }
    }

    /// Mass properties and member placement of a group at `density` (<doc:UnitsAndSemantics>, parallel axes).
    static func compound(_ group: DynamicItemGroup, density: CGFloat)
        -> (shape: ItemDescription.Shape, center: CGPoint, members: [AnimatorEntry.Member])
    {
        var parts: [(item: any DynamicItem, mass: CGFloat, inertia: CGFloat)] = []
        for item in group.items {
            validate(item)
            let (area, polar) = item.areaMoments
            require(area > 0, "the collisionBoundingPath of \(item.messageName) encloses no area")
            parts.append((item, density * area / 10_000, density * polar / 10_000))
        }
        let total = parts.reduce(0) { $0 + $1.mass }
        let cx = parts.reduce(0) { $0 + $1.mass * $1.item.center.x } / total
        let cy = parts.reduce(0) { $0 + $1.mass * $1.item.center.y } / total
        var inertia: CGFloat = 0
        var members: [AnimatorEntry.Member] = []
        for part in parts {
            let (dx, dy) = (part.item.center.x - cx, part.item.center.y - cy)
            inertia += part.inertia + part.mass * (dx * dx + dy * dy)
            members.append(.init(item: part.item, offset: CGVector(dx: dx, dy: dy), angle: part.item.rotationAngle))
        }
        let size = group.bounds.size
        return (.compound(mass: total, inertia: inertia, width: size.width, height: size.height),
                CGPoint(x: cx, y: cy), members)
    }
}
