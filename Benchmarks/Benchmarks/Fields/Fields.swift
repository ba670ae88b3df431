// SPDX-License-Identifier: Apache-2.0
// Item-field evaluations per second: one world step (4 substeps, rest detection off, no collisions) of
// N items under K fields, all items members of every field, infinite regions.
//   per kind:  10⁵ items × 8 fields of one kind, every built-in kind
//   mixed:     10⁴, 10⁵, 10⁶ items × 1, 8, 32 fields cycling through the eight non-noise kinds
// at 1 and 2 workers (and mixedblas: 10⁵ items on the BLAS integrator, 1 worker), and a STREAM triad
// in the same run over the bytes one step's field passes must move at least
// (per item: the field pass reads position, velocity, inverse mass, charge, two membership words and
// the two acceleration columns and writes those two back, 40 B; the integration around it is the
// `integration` benchmark's). Evaluations per step = N × K × 4; Benchmarks/fields-table.py turns the
// JMH export of this target into the committed table.
import Benchmark
import Dynamics
import Foundation
import TriadSupport

let substeps = 4
let bytesPerItem = 40

final class LazyFieldWorld: @unchecked Sendable {
    private let items: Int, kinds: [FieldKind], workers: Int, integrator: Integrator
    private var built: DynamicWorld?

    init(items: Int, kinds: [FieldKind], workers: Int, integrator: Integrator) {
        (self.items, self.kinds, self.workers, self.integrator) = (items, kinds, workers, integrator)
    }

    var world: DynamicWorld {
        if let built { return built }
        var configuration = DynamicsConfiguration()
        configuration.workerCount = workers
        configuration.substeps = substeps
        configuration.restDetection = false
        configuration.integrator = integrator
        configuration.simd = SIMDLevel.fromEnvironment() ?? .automatic
        let w = try! DynamicWorld(configuration: configuration)
        let columns = Int(Double(items).squareRoot().rounded(.up))
        var item = ItemDescription()
        item.charge = 1
        let points: [CGPoint] = (0..<items).map { (k: Int) -> CGPoint in
            CGPoint(x: Double(k % columns) * 120, y: Double(k / columns) * 120)
        }
        let ids = try! w.createItems(item, at: points)
        let centre = CGPoint(x: Double(columns) * 60, y: Double(columns) * 60)
        for kind in kinds {
            var d = FieldDescription(kind: kind)
            d.position = centre
            d.strength = kind == .velocity ? 10 : 0.01
            d.direction = CGVector(dx: 0.6, dy: 0.8)
            try! w.addField(d, for: ids)
        }
        try! w.step(count: 1)
        built = w
        return w
    }
}

let nonNoise: [FieldKind] = [.linearGravity, .radialGravity, .spring, .drag, .velocity, .electric, .magnetic, .vortex]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 1,
        maxDuration: .seconds(1),
        maxIterations: 500
    )
    func add(_ name: String, items: Int, kinds: [FieldKind], workers: Int, integrator: Integrator = .fused) {
        let lazy = LazyFieldWorld(items: items, kinds: kinds, workers: workers, integrator: integrator)
        Benchmark("fields \(name) \(items) items \(kinds.count) fields \(workers)w") { benchmark in
            let world = lazy.world
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { try! world.step(count: 1) }
            benchmark.stopMeasurement()
        }
    }
    for workers in [1, 2] {
        for kind in FieldKind.allCases {
            add("\(kind)", items: 100_000, kinds: Array(repeating: kind, count: 8), workers: workers)
        }
        for items in [10_000, 100_000, 1_000_000] {
            for count in [1, 8, 32] {
                add("mixed", items: items, kinds: (0..<count).map { nonNoise[$0 % nonNoise.count] }, workers: workers)
            }
        }
    }
    // The same mixed worlds with v += h·a and q += h·v as BLAS saxpy calls (the `blas` integrator).
    for count in [1, 8, 32] {
        add("mixedblas", items: 100_000, kinds: (0..<count).map { nonNoise[$0 % nonNoise.count] }, workers: 1,
            integrator: .blas)
    }
    for items in [10_000, 100_000, 1_000_000] {
        let triad = LazyTriad(bytes: items * bytesPerItem * substeps)
        Benchmark("triad \(items) items") { benchmark in
            _ = triad.arrays
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(triad.run()) }
            benchmark.stopMeasurement()
        }
    }
}
