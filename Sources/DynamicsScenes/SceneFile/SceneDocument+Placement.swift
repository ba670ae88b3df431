// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneDocument {
    /// Each generator's items, in generator and id order: a grid's at its places; a random layout's at
    /// random centres where the item's bounding box overlaps no item placed before it (the listed items,
    /// the earlier generators' items and its own), so that no contact is there at the first step. Throws
    /// when a random layout cannot place an item apart after ``ScenePlacementError/attempts`` draws.
    public func generatedItems() throws(ScenePlacementError) -> [[(center: CGPoint, shape: SceneShape)]] {
        var cell: CGFloat = 1
        for g in generators {
            if case .random(_, _, let maxSize, _) = g.layout { cell = max(cell, hypot(maxSize.width, maxSize.height)) }
        }
        var occupied = OccupiedArea(cell: cell)
        for item in items { occupied.insert(Self.boundingBox(item.shape, at: item.center, angle: item.angle)) }
        var all: [[(center: CGPoint, shape: SceneShape)]] = []
        for (k, g) in generators.enumerated() {
            let placed = try g.placements(sceneSeed: configuration.seed, avoiding: &occupied, generator: k)
            if case .grid = g.layout {
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

/// A random layout that could not place its items apart.
public struct ScenePlacementError: Error, Equatable, Sendable, CustomStringConvertible {
    /// How many random centres an item may try.
    public static let attempts = 1000
    /// The generator, by its index in the file.
    public let generator: Int
    /// How many of its items were placed.
    public let placed: Int
    /// How many it should have made.
    public let count: Int

    public var description: String {
        "cannot place item \(placed) of \(count) apart from the items before it in 'rect' (\(Self.attempts) random centres "
            + "tried): give a larger 'rect', or a smaller 'count' or 'maxSize'"
    }
}

/// The boxes of the items placed so far, in a uniform grid of cells, for overlap queries in O(1).
struct OccupiedArea {
    private let cell: CGFloat
    private var cells: [Key: [Int]] = [:]
    private var boxes: [CGRect] = []
    /// Boxes too large for the grid (more than `maxCells` cells), tested one by one.
    private var large: [CGRect] = []
    private static let maxCells = 4096

    private struct Key: Hashable { let x, y: Int }

    init(cell: CGFloat) { self.cell = max(cell, 1e-3) }

    private func range(_ box: CGRect) -> (ClosedRange<Int>, ClosedRange<Int>)? {
        let (x0, x1) = ((box.minX / cell).rounded(.down), (box.maxX / cell).rounded(.down))
        let (y0, y1) = ((box.minY / cell).rounded(.down), (box.maxY / cell).rounded(.down))
        guard (x1 - x0 + 1) * (y1 - y0 + 1) <= CGFloat(Self.maxCells), abs(x0) < 1e15, abs(y0) < 1e15 else { return nil }
        return (Int(x0)...Int(x1), Int(y0)...Int(y1))
    }

    mutating func insert(_ box: CGRect) {
        guard let (xs, ys) = range(box) else {
            large.append(box)
            return
        }
        boxes.append(box)
        for x in xs { for y in ys { cells[Key(x: x, y: y), default: []].append(boxes.count - 1) } }
    }

    /// Whether `box` overlaps a box inserted before (touching edges do not count).
    func overlaps(_ box: CGRect) -> Bool {
        func strictly(_ a: CGRect) -> Bool { a.minX < box.maxX && box.minX < a.maxX && a.minY < box.maxY && box.minY < a.maxY }
        if large.contains(where: strictly) { return true }
        guard let (xs, ys) = range(box) else { return boxes.contains(where: strictly) }
        for x in xs { for y in ys { if cells[Key(x: x, y: y)]?.contains(where: { strictly(boxes[$0]) }) == true { return true } } }
        return false
    }
}
