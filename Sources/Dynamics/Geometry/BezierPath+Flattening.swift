// SPDX-License-Identifier: Apache-2.0
import Foundation

extension BezierPath {
    /// The path as polylines, one per subpath, with arcs and curves flattened to line segments.
    /// `closed` tells whether the subpath ended with ``close()``. Arcs use at most 1/32 turn per
    /// segment (at least 4 segments); cubic curves 16 segments.
    func polylines() -> [(points: [CGPoint], closed: Bool)] {
        var result: [(points: [CGPoint], closed: Bool)] = []
        var current: [CGPoint] = []
        func finish(closed: Bool) {
            if current.count >= 2 || (closed && current.count >= 3) { result.append((current, closed)) }
            current = []
        }
        for element in elements {
            switch element {
            case let .move(p):
                finish(closed: false)
                current = [p]
            case let .line(p):
                if current.isEmpty { current = [p] } else if current.last != p { current.append(p) }
            case let .arc(center, radius, start, end, clockwise):
                // UIKit's clockwise is the positive angle direction on a y-down screen. The sweep is at most one
                // full turn, reached when the angles differ by a whole non-zero number of turns.
                let raw = end - start
                var sweep = raw.truncatingRemainder(dividingBy: 2 * .pi)
                if clockwise {
                    if sweep < 0 || (sweep == 0 && raw < 0) { sweep += 2 * .pi }
                    if sweep == 0 && raw > 0 { sweep = 2 * .pi }
                } else {
                    if sweep > 0 || (sweep == 0 && raw > 0) { sweep -= 2 * .pi }
                    if sweep == 0 && raw < 0 { sweep = -2 * .pi }
                }
                let n = max(4, Int((abs(sweep) / (2 * .pi / 32)).rounded(.up)))
                for k in 0...n {
                    let a = start + sweep * CGFloat(k) / CGFloat(n)
                    let p = CGPoint(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
                    if current.last.map({ hypot($0.x - p.x, $0.y - p.y) > 1e-9 }) ?? true { current.append(p) }
                }
            case let .curve(end, c1, c2):
                let p0 = current.last ?? end
                for k in 1...16 {
                    let t = CGFloat(k) / 16, u = 1 - t
                    let x = u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * end.x
                    let y = u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * end.y
                    current.append(CGPoint(x: x, y: y))
                }
            case .close:
                if let first = current.first, let last = current.last, hypot(first.x - last.x, first.y - last.y) < 1e-9 {
                    current.removeLast()
                }
                let start = current.first
                finish(closed: true)
                if let start { current = [start] }
            }
        }
        finish(closed: false)
        return result.filter { $0.points.count >= 2 }
    }
}
