// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneDocument {
    /// Warns about items that overlap a boundary they collide with at the start (the contact pushes them
    /// out violently or traps them on the wrong side), and about items wholly outside reference bounds they
    /// collide with (which then never hold them): at most `limit` warnings, then one with the count.
    /// `generated` holds the generators' items (``generatedItems()``).
    func warnOverlaps(reader: SceneReader, generated: [[(center: CGPoint, shape: SceneShape)]], limit: Int = 20) {
        var tagged: [String: [Int]] = [:], names: [String] = [], outlines: [(center: CGPoint, angle: CGFloat, shape: SceneShape)] = []
        var paths: [String] = []
        for (k, item) in items.enumerated() {
            for tag in item.tags { tagged[tag, default: []].append(names.count) }
            names.append(item.id)
            outlines.append((item.center, item.angle, item.shape))
            paths.append("/items/\(k)")
        }
        for (g, (generator, placements)) in zip(generators, generated).enumerated() {
            for (k, placed) in placements.enumerated() {
                for tag in [generator.id] + generator.tags { tagged[tag, default: []].append(names.count) }
                names.append("\(generator.id)-\(k)")
                outlines.append((placed.center, generator.angle, placed.shape))
                paths.append("/generators/\(g)")
            }
        }
        let index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var found = 0
        for behavior in behaviors {
            guard case .collision(let c) = behavior.kind, c.mode != .items else { continue }
            let walls = c.outlines(bounds: bounds)
            let labels = (c.boundsAsBoundary && bounds != nil ? ["the reference bounds"] : []) + c.boundaries.map { "boundary '\($0.id)'" }
            let targets: [Int] = c.targets.items.isEmpty && c.targets.tags.isEmpty ? Array(names.indices)
                : Array(Set(c.targets.items.compactMap { index[$0] } + c.targets.tags.flatMap { tagged[$0] ?? [] })).sorted()
            for i in targets {
                let polygons = Self.polygons(outlines[i].shape, at: outlines[i].center, angle: outlines[i].angle)
                if c.boundsAsBoundary, let bounds, !bounds.intersects(Self.boundingBox(outlines[i].shape, at: outlines[i].center,
                                                                                        angle: outlines[i].angle)) {
                    found += 1
                    if found <= limit {
                        reader.warning(paths[i], "item '\(names[i])' lies outside the reference bounds at the start: they never hold it")
                    }
                }
                for (w, wall) in walls.enumerated() where polygons.contains(where: { Self.overlaps($0, wall) }) {
                    found += 1
                    if found <= limit {
                        reader.warning(paths[i], "item '\(names[i])' overlaps \(labels[w]) at the start")
                    }
                }
            }
        }
        if found > limit { reader.warning("", "\(found - limit) more items overlap a boundary or lie outside the bounds at the start") }
    }

    /// A shape's outlines (one per part) with the item's `center` at `c`, turned by `angle`.
    static func polygons(_ shape: SceneShape, at c: CGPoint, angle: CGFloat) -> [[CGPoint]] {
        let (s, co) = (sin(angle), cos(angle))
        return shape.outlines.map { $0.map { CGPoint(x: c.x + co * $0.x - s * $0.y, y: c.y + s * $0.x + co * $0.y) } }
    }

    /// Whether a polyline crosses or enters a convex polygon (touching counts; a boundary just along an edge
    /// is where a resting item belongs, so only a strict overlap counts).
    static func overlaps(_ polygon: [CGPoint], _ line: [CGPoint]) -> Bool {
        func cross(_ o: CGPoint, _ a: CGPoint, _ b: CGPoint) -> CGFloat { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        let n = polygon.count
        let orientation: CGFloat = cross(polygon[0], polygon[1], polygon[min(2, n - 1)]) >= 0 ? 1 : -1
        func inside(_ p: CGPoint) -> Bool {
            (0..<n).allSatisfy { orientation * cross(polygon[$0], polygon[($0 + 1) % n], p) > 1e-9 }
        }
        for k in 0..<max(line.count - 1, 0) {
            let (a, b) = (line[k], line[k + 1])
            if inside(a) || inside(b) { return true }
            // A segment through the polygon: its midpoint inside, or it properly crosses two edges.
            if inside(CGPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)) { return true }
            var crossings = 0
            for e in 0..<n {
                let (p, q) = (polygon[e], polygon[(e + 1) % n])
                let d1 = cross(a, b, p), d2 = cross(a, b, q), d3 = cross(p, q, a), d4 = cross(p, q, b)
                if d1 * d2 < 0 && d3 * d4 < 0 { crossings += 1 }
            }
            if crossings >= 2 { return true }
        }
        return false
    }
}
