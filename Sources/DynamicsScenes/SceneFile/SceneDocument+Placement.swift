// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneDocument {
    /// Each generator's items, in generator and id order: a grid's at its places; a random layout's at
    /// random centres where the item's bounding box overlaps no item placed before it (the listed items,
    /// the earlier generators' items and its own), so that no contact is there at the first step. Throws
    /// when a random layout cannot place an item apart after ``ScenePlacementError/attempts`` draws.
    public func generatedItems() throws(ScenePlacementError) -> [[(center: CGPoint, shape: SceneShape)]] {
        try Self.place(generators, after: items, seed: configuration.seed)
    }

    /// The items of `generators` placed after `items` (the document's, or a template's), as
    /// ``generatedItems()`` places them.
    static func place(_ generators: [SceneGenerator], after items: [SceneItem], seed: UInt64)
        throws(ScenePlacementError) -> [[(center: CGPoint, shape: SceneShape)]]
    {
        var cell: CGFloat = 1
        for g in generators {
            if case .random(_, _, let maxSize, _) = g.layout { cell = max(cell, hypot(maxSize.width, maxSize.height)) }
        }
        // Only random layouts look at what was placed before them: the boxes placed after the last one are
        // not recorded (a scene without one records none).
        let lastRandom = generators.lastIndex { if case .random = $0.layout { true } else { false } } ?? -1
        var occupied = OccupiedArea(cell: cell)
        if lastRandom >= 0 {
            for item in items { occupied.insert(Self.boundingBox(item.shape, at: item.center, angle: item.angle)) }
        }
        var all: [[(center: CGPoint, shape: SceneShape)]] = []
        for (k, g) in generators.enumerated() {
            let placed = try g.placements(sceneSeed: seed, avoiding: &occupied, generator: k)
            if case .grid = g.layout, k < lastRandom {
                for p in placed { occupied.insert(Self.boundingBox(p.shape, at: p.center, angle: g.angle)) }
            }
            all.append(placed)
        }
        return all
    }

    /// The axis-aligned box around a shape at `center` turned by `angle`, pt.
    static func boundingBox(_ shape: SceneShape, at center: CGPoint, angle: CGFloat) -> CGRect {
        let points = polygons(shape, at: center, angle: angle).flatMap { $0 }
        guard let first = points.first else { return CGRect(origin: center, size: .zero) }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for p in points {
            (minX, minY, maxX, maxY) = (min(minX, p.x), min(minY, p.y), max(maxX, p.x), max(maxY, p.y))
        }
        // An ellipse's outline is a 16-gon inside it: 2 % more covers the curve between its corners.
        let (dx, dy) = ((maxX - minX) * 0.01, (maxY - minY) * 0.01)
        return CGRect(x: minX - dx, y: minY - dy, width: maxX - minX + 2 * dx, height: maxY - minY + 2 * dy)
    }
}
