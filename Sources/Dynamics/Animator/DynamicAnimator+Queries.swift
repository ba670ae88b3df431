// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicAnimator {
    /// The items whose collision outline overlaps or touches `rect` (pt), in the order they joined the animator.
    ///
    /// The outline is the rectangle, ellipse or path that the item's `collisionBoundsType` names (for a
    /// ``DynamicItemGroup``, its members' outlines), at the item's pose in the animator's world. UIKit tests
    /// the items' frames instead; here a round item whose frame alone reaches into `rect` is not found. Items in
    /// a ``CollisionBehavior`` are answered from the world's query grid
    /// (``DynamicWorld/items(overlapping:filter:)``); an item in none has no shape in the world, and its outline
    /// is tested on its own by the same exact test. A path outline the world cannot collide with (not convex, or
    /// more than 16 points) is tested by its bounding box. A null `rect` meets nothing; a rect with no width or
    /// height is a segment or a point; one reaching past ±10¹⁵ pt is cut there. Traps when `rect` is not finite
    /// (NaN).
    public func items(in rect: CGRect) -> [any DynamicItem] {
        guard !rect.isNull else { return [] }
        let query = Self.queryShape(of: rect)
        var answered = Set<ItemID>()
        if entries.values.contains(where: \.collides) { // (else the world has no item shapes to index)
            do {
                answered = Set(try world.items(overlapping: query, filter: .items))
            } catch {
                fatalError("items(in:): \(error)")
            }
        }
        let (points, radius) = query.kernelPoints
        return entryOrder.compactMap { key in
            let entry = entries[key]!
            if entry.collides { return answered.contains(entry.id) ? entry.item : nil }
            let pose = world.pose(of: entry.id)
            return outlines(of: entry, at: pose).contains { Self.meets($0, (points, radius)) } ? entry.item : nil
        }
    }

    /// Whether an outline meets the query; an outline the kernel refuses (a path not convex, or of more than 16
    /// points) by its bounding box.
    private static func meets(_ outline: (points: [CGPoint], radius: CGFloat),
                              _ query: (points: [CGPoint], radius: CGFloat)) -> Bool
    {
        if let result = try? KernelWorld.overlap(outline, query) { return result }
        let xs = outline.points.map(\.x), ys = outline.points.map(\.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return false }
        let r = outline.radius
        let box = queryShape(of: CGRect(x: x0 - r, y: y0 - r, width: x1 - x0 + 2 * r, height: y1 - y0 + 2 * r))
        return (try? KernelWorld.overlap(box.kernelPoints, query)) ?? false
    }

    /// `rect` as a query shape: a rectangle, or a segment or a point when it has no width or height; cut at
    /// ±10¹⁵ pt, where the kernel's single precision still squares its sides.
    static func queryShape(of rect: CGRect) -> QueryShape {
        let limit: CGFloat = 1e15
        let values = [rect.minX, rect.minY, rect.maxX, rect.maxY]
        require(values.allSatisfy { !$0.isNaN }, "items(in:) needs a rect without NaN, got \(rect)")
        let c = values.map { min(max($0, -limit), limit) }
        let (x0, y0, x1, y1) = (c[0], c[1], c[2], c[3])
        switch (x1 > x0, y1 > y0) {
        case (true, true): return .rectangle(CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        case (true, false): return .polygon([CGPoint(x: x0, y: y0), CGPoint(x: x1, y: y0)])
        case (false, true): return .polygon([CGPoint(x: x0, y: y0), CGPoint(x: x0, y: y1)])
        case (false, false): return .point(CGPoint(x: x0, y: y0))
        }
    }

    /// The outlines of an entry without shapes in the world (as query shapes: points in world coordinates and a
    /// radius) at `pose`: its item's, or each member's of a group, as `addShapes` would give them.
    private func outlines(of entry: AnimatorEntry, at pose: (center: CGPoint, angle: CGFloat))
        -> [(points: [CGPoint], radius: CGFloat)]
    {
        let parts: [(item: any DynamicItem, offset: CGPoint, angle: CGFloat)] = entry.members.isEmpty
            ? [(entry.item, .zero, 0)]
            : entry.members.map { ($0.item, CGPoint(x: $0.offset.dx, y: $0.offset.dy), $0.angle) }
        let (c, s) = (cos(pose.angle), sin(pose.angle))
        func place(_ p: CGPoint) -> CGPoint {
            CGPoint(x: pose.center.x + c * p.x - s * p.y, y: pose.center.y + s * p.x + c * p.y)
        }
        return parts.compactMap { part in
            switch try? Self.collisionShape(of: part.item).kernelGeometry(offset: part.offset, angle: part.angle) {
            case let .circle(center, radius)?: ([place(center)], radius)
            case let .polygon(points, radius)?: (points.map(place), radius)
            default: nil
            }
        }
    }
}
