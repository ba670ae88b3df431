// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneGenerator {
    /// Each item's centre and shape, in id order. A random layout draws from SplitMix64 seeded by the
    /// scene's seed and the generator's (the same file gives the same items on every machine): each item's
    /// size, then centres until its bounding box overlaps nothing in `occupied`, where it is then added.
    /// A grid's items go where the grid says, whatever they overlap. `generator` is the generator's index,
    /// for the error.
    func placements(sceneSeed: UInt64, avoiding occupied: inout OccupiedArea, generator: Int)
        throws(ScenePlacementError) -> [(center: CGPoint, shape: SceneShape)]
    {
        switch layout {
        case .grid(let origin, let columns, let spacing):
            return (0..<count).map { k in
                (CGPoint(x: origin.x + CGFloat(k % columns) * spacing.dx, y: origin.y + CGFloat(k / columns) * spacing.dy), shape)
            }
        case .random(let rect, let minSize, let maxSize, let seed):
            var state = sceneSeed &* 0x9E37_79B9_7F4A_7C15 ^ seed
            func next() -> Double {  // SplitMix64, 53 bits in [0, 1)
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
            }
            var placed: [(center: CGPoint, shape: SceneShape)] = []
            placed.reserveCapacity(count)
            for k in 0..<count {
                let w = minSize.width + (maxSize.width - minSize.width) * next()
                var h = minSize.height + (maxSize.height - minSize.height) * next()
                if case .ellipse(let a, let b) = shape, a == b { h = w }  // circles stay circles
                let sized = Self.resized(shape, width: w, height: h)
                let box = SceneDocument.boundingBox(sized, at: .zero, angle: angle)
                var found: CGPoint?
                for _ in 0..<ScenePlacementError.attempts {
                    let c = CGPoint(x: rect.minX + rect.width * next(), y: rect.minY + rect.height * next())
                    if !occupied.overlaps(box.offsetBy(dx: c.x, dy: c.y)) {
                        found = c
                        break
                    }
                }
                guard let found else { throw ScenePlacementError(generator: generator, placed: k, count: count) }
                occupied.insert(box.offsetBy(dx: found.x, dy: found.y))
                placed.append((found, sized))
            }
            return placed
        }
    }

    /// `shape` at the given size (a polygon scaled to fit it).
    static func resized(_ shape: SceneShape, width: CGFloat, height: CGFloat) -> SceneShape {
        switch shape {
        case .rectangle: return .rectangle(width: width, height: height)
        case .ellipse: return .ellipse(width: width, height: height)
        case .group: return shape  // a group keeps its size
        case .polygon(let points):
            let xs = points.map(\.x), ys = points.map(\.y)
            let sx = width / max((xs.max() ?? 1) - (xs.min() ?? 0), 1e-9), sy = height / max((ys.max() ?? 1) - (ys.min() ?? 0), 1e-9)
            return .polygon(points.map { CGPoint(x: $0.x * sx, y: $0.y * sy) })
        case .capsule: return .capsule(width: width, height: height)
        case .roundedRectangle(let w, let h, let r):  // the radius scaled with the shorter side
            return .roundedRectangle(width: width, height: height, radius: r * min(width, height) / min(w, h))
        case .roundedPolygon(let points, let r):  // the whole outline scaled to fit, the radius with its smaller scale
            let xs = points.map(\.x), ys = points.map(\.y)
            let w = (xs.max() ?? 0) - (xs.min() ?? 0) + 2 * r, h = (ys.max() ?? 0) - (ys.min() ?? 0) + 2 * r
            let sx = width / max(w, 1e-9), sy = height / max(h, 1e-9)
            return .roundedPolygon(points.map { CGPoint(x: $0.x * sx, y: $0.y * sy) }, radius: r * min(sx, sy))
        }
    }
}
