// SPDX-License-Identifier: Apache-2.0
import Foundation

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
