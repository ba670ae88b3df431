// SPDX-License-Identifier: Apache-2.0
// Items made and removed between steps (issue 41, item 4, what Box2D's `rain` does): a still world of 10 000
// boxes of 40 pt, 50 pt apart on a 100 × 100 grid, without gravity (rest detection off, 1 worker: every step
// does the same work, and keeps last step's pairs when nothing moved), where each measured iteration makes K
// boxes with collision shapes beside the grid, removes the K boxes made the iteration before (so the world
// keeps its size), and steps once; against a plain step of the same world measured in the same run (the
// reference). K is 10, 100 and 1 000. What churn costs is the difference, per box made and removed.
import Benchmark
import Dynamics
import Foundation

/// The still grid, built on first use outside the measured region.
final class LazyPile: @unchecked Sendable {
    private var built: (world: DynamicWorld, churned: [[ItemID]])?
    let side = 100

    var pile: (world: DynamicWorld, churned: [[ItemID]]) {
        get {
            if let built { return built }
            var c = DynamicsConfiguration()
            c.workerCount = 1
            c.restDetection = false
            let w = try! DynamicWorld(configuration: c)
            let boxes = try! w.createItems(ItemDescription(shape: .rectangle(width: 40, height: 40)),
                                            at: (0..<(side * side)).map { k in
                                                CGPoint(x: -2500 + 50 * Double(k % side), y: -25 - 50 * Double(k / side))
                                            })
            try! w.addCollisionShape(.rectangle(width: 40, height: 40), to: boxes)
            try! w.step(count: 2)
            built = (w, [])
            return built!
        }
        set { built = newValue }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(3),
        maxIterations: 300
    )
    let plain = LazyPile()
    Benchmark("churn reference: a step of the 10 000 still boxes") { benchmark in
        let world = plain.pile.world
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try! world.step(count: 1) }
        benchmark.stopMeasurement()
    }
    for k in [10, 100, 1_000] {
        let lazy = LazyPile()
        Benchmark("churn: make and remove \(k) boxes, then a step of the 10 000 still boxes") { benchmark in
            var (world, churned) = lazy.pile
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let made = try! world.createItems(ItemDescription(shape: .rectangle(width: 40, height: 40)),
                                                  at: (0..<k).map { i in CGPoint(x: -2500 + 50 * Double(i % 100), y: 1000 + 50 * Double(i / 100)) })
                try! world.addCollisionShape(.rectangle(width: 40, height: 40), to: made)
                churned.append(made)
                if churned.count > 1 { try! world.removeItems(churned.removeFirst()) }
                try! world.step(count: 1)
            }
            benchmark.stopMeasurement()
            lazy.pile = (world, churned)
        }
    }
}
