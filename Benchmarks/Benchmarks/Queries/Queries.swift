// SPDX-License-Identifier: Apache-2.0
// Ray casts into the 100 000-box pile (issue 42, item 1): the built-in `pile` scene at 10⁵ items as it is made
// (before its first step, so that Box2D, which Benchmarks/queries_box2d.py times on the same layout, sees the
// same boxes), and 10⁵ rays from above the container to below its floor, each a little slanted, spread over its
// width. Measured: the bulk call at 1 and 2 workers with the query grid kept from the call before, the same with
// the grid built again first (as after a step), the single-ray call for each ray in turn, and as the reference in
// the same run, the brute force: each of 1 000 of the rays tested against every box and boundary (per ray, the
// bulk call's work is 10⁵ times smaller). Before timing, the brute force's first hits are checked against the
// bulk call's. Also 10⁵ points spread over the container: the bulk point query at 1 and 2 workers (grid kept),
// checked against the single query, and as its reference the single query once per point.
import Benchmark
import Dynamics
import DynamicsScenes
import Foundation

let items = 100_000
let columns = Int((2 * Double(items).squareRoot()).rounded(.up)), rows = (items + columns - 1) / columns
let halfWidth = Double(columns) * 60 + 100, height = Double(rows) * 120 + 1000

/// Ray k of n: from above the container to below its floor (pt, y down).
func ray(_ k: Int, of n: Int) -> (CGPoint, CGPoint) {
    let x = -halfWidth + Double(k * 7919 % 100_003) / 100_003 * 2 * halfWidth
    let slant = Double(k * 104_729 % 2001 - 1000) / 2
    return (CGPoint(x: x, y: -(height + 500)), CGPoint(x: x + slant, y: 500))
}

let rays = (0..<items).map { ray($0, of: items) }
let starts = rays.map(\.0), ends = rays.map(\.1)

/// Point k: spread over the container, from its floor to the top of its walls (pt, y down).
func point(_ k: Int) -> CGPoint {
    let u = Double(k * 7919 % 100_003) / 100_003, v = Double(k * 104_729 % 100_019) / 100_019
    return CGPoint(x: (2 * u - 1) * halfWidth, y: -v * height)
}
let points = (0..<items).map(point)

final class LazyPile: @unchecked Sendable {
    private var built: DynamicWorld?
    let workers: Int
    init(workers: Int) { self.workers = workers }
    var world: DynamicWorld {
        if let built { return built }
        var c = DynamicsConfiguration()
        c.workerCount = workers
        let w = try! Scene.named("pile")!.makeWorld(items: items, configuration: c)
        built = w
        return w
    }
}

/// The first hit of the segment p→q among every box (100 pt, at its pose) and the container's three boundaries,
/// as a fraction: the slab test in each box's frame, and the segments' intersections.
func bruteForce(_ p: CGPoint, _ q: CGPoint, xs: [Float], ys: [Float], angles: [Float]) -> Double? {
    var best = Double.infinity
    let dx = q.x - p.x, dy = q.y - p.y
    for i in 0..<xs.count {
        let c = cos(Double(angles[i])), s = sin(Double(angles[i]))
        let ox = p.x - Double(xs[i]), oy = p.y - Double(ys[i])
        let lx = c * ox + s * oy, ly = -s * ox + c * oy, ldx = c * dx + s * dy, ldy = -s * dx + c * dy
        var lo = 0.0, hi = 1.0
        for (o, d) in [(lx, ldx), (ly, ldy)] {
            if d == 0 {
                if abs(o) > 50 { lo = 2 }
                continue
            }
            let ta = (-50 - o) / d, tb = (50 - o) / d
            lo = max(lo, min(ta, tb))
            hi = min(hi, max(ta, tb))
        }
        if lo <= hi, lo > 0 { best = min(best, lo) }
    }
    let corners = [CGPoint(x: -halfWidth, y: -height), CGPoint(x: -halfWidth, y: 0), CGPoint(x: halfWidth, y: 0),
                   CGPoint(x: halfWidth, y: -height)]
    for k in 0..<3 {
        let a = corners[k], b = corners[k + 1], ex = b.x - a.x, ey = b.y - a.y
        let den = dx * ey - dy * ex
        if den == 0 { continue }
        let t = ((a.x - p.x) * ey - (a.y - p.y) * ex) / den, u = ((a.x - p.x) * dy - (a.y - p.y) * dx) / den
        if t >= 0, t <= 1, u >= 0, u <= 1 { best = min(best, t) }
    }
    return best.isFinite ? best : nil
}

func columns(of world: DynamicWorld) -> (xs: [Float], ys: [Float], angles: [Float]) {
    let xs = world.withColumn(.positionX) { c in (0..<c.count).map { c[$0] } }
    let ys = world.withColumn(.positionY) { c in (0..<c.count).map { c[$0] } }
    let angles = world.withColumn(.angle) { c in (0..<c.count).map { c[$0] } }
    return (xs, ys, angles)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 30
    )
    for workers in [1, 2] {
        let pile = LazyPile(workers: workers)
        Benchmark("queries: 100 000 rays into the 100 000-box pile, bulk, \(workers) worker(s), grid kept") { benchmark in
            let world = pile.world
            var hits: [RayHit?] = []
            try! world.rayCast(from: starts, to: ends, into: &hits) // builds the grid, checked below
            let (xs, ys, angles) = columns(of: world)
            for k in stride(from: 0, to: items, by: 997) {
                let expected = bruteForce(starts[k], ends[k], xs: xs, ys: ys, angles: angles)
                precondition((hits[k]?.fraction).map(Double.init).map { abs($0 - expected!) < 1e-4 } ?? (expected == nil),
                             "ray \(k): bulk \(String(describing: hits[k])), brute force \(String(describing: expected))")
            }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { try! world.rayCast(from: starts, to: ends, into: &hits) }
            benchmark.stopMeasurement()
            blackHole(hits)
        }
        Benchmark("queries: 100 000 rays into the 100 000-box pile, bulk, \(workers) worker(s), grid built first") { benchmark in
            let world = pile.world
            let first = world.itemIDs().prefix(1).map { $0 }
            let pose = world.pose(of: first[0])
            var hits: [RayHit?] = []
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try! world.setPositions([pose.center], angles: [pose.angle], for: first) // a change: the grid goes
                try! world.rayCast(from: starts, to: ends, into: &hits)
            }
            benchmark.stopMeasurement()
            blackHole(hits)
        }
    }
    for workers in [1, 2] {
        let pile = LazyPile(workers: workers)
        Benchmark("queries: 100 000 points in the 100 000-box pile, bulk, \(workers) worker(s), grid kept") { benchmark in
            let world = pile.world
            var found: [ItemID?] = []
            try! world.items(at: points, into: &found) // builds the grid, checked below
            for k in stride(from: 0, to: items, by: 997) {
                precondition(found[k] == (try! world.items(at: points[k])).first, "point \(k): bulk and single differ")
            }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { try! world.items(at: points, into: &found) }
            benchmark.stopMeasurement()
            blackHole(found)
        }
    }
    let single = LazyPile(workers: 1)
    Benchmark("queries: 100 000 points in the 100 000-box pile, one call per point") { benchmark in
        let world = single.world
        _ = try! world.items(at: points[0])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for k in 0..<items { blackHole(try! world.items(at: points[k])) }
        }
        benchmark.stopMeasurement()
    }
    Benchmark("queries: 100 000 rays into the 100 000-box pile, one call per ray") { benchmark in
        let world = single.world
        _ = try! world.rayCast(from: starts[0], to: ends[0])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for k in 0..<items { blackHole(try! world.rayCast(from: starts[k], to: ends[k])) }
        }
        benchmark.stopMeasurement()
    }
    Benchmark("queries reference: 1 000 rays, brute force against every box") { benchmark in
        let world = single.world
        let (xs, ys, angles) = columns(of: world)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for k in stride(from: 0, to: items, by: 100) {
                blackHole(bruteForce(starts[k], ends[k], xs: xs, ys: ys, angles: angles))
            }
        }
        benchmark.stopMeasurement()
    }
}
