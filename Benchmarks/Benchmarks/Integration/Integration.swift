// SPDX-License-Identifier: Apache-2.0
// One step of integration (gravity, resistance, a centred push; 4 substeps; rest detection off) for
// 10³…10⁶ items on the best SIMD path, the scalar path and the BLAS path, and a STREAM triad over the
// same bytes in the same run as the memory-bandwidth floor.
//
// Bytes: the fused pass reads 16 float columns per item (pose, velocity, inverse mass and inertia, gravity,
// force, the two torque coefficients, two damping coefficients) and writes 6 back in place: 88 B per item.
// The triad moves 12 B per element (two reads, one write), so it runs over 88/12 elements per item.
import Benchmark
import Dynamics
import DynamicsScenes
import TriadSupport

let bytesPerItem = 88

/// Builds its world on first use, outside the measured region, and keeps it for later iterations.
final class LazyWorld: @unchecked Sendable {
    private let items: Int
    private let configuration: DynamicsConfiguration
    private var built: DynamicWorld?

    init(items: Int, simd: SIMDLevel, integrator: Integrator) {
        self.items = items
        var c = DynamicsConfiguration()
        c.workerCount = 1
        c.simd = SIMDLevel.fromEnvironment() ?? simd
        if simd == .scalar { c.simd = .scalar }
        c.integrator = integrator
        c.restDetection = false
        configuration = c
    }

    var world: DynamicWorld {
        if let built { return built }
        let w = try! Scene.integration.makeWorld(items: items, configuration: configuration)
        try! w.step(count: 1)
        built = w
        return w
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 2,
        maxDuration: .seconds(2),
        maxIterations: 2000
    )
    let paths: [(name: String, simd: SIMDLevel, integrator: Integrator)] = [
        ("simd-\(DynamicWorld.bestSIMDPath)", .automatic, .fused),
        ("scalar", .scalar, .scalar),
        ("blas", .automatic, .blas),
    ]
    for items in [1_000, 10_000, 100_000, 1_000_000] {
        for path in paths {
            let lazy = LazyWorld(items: items, simd: path.simd, integrator: path.integrator)
            Benchmark("integration \(path.name) \(items) items") { benchmark in
                let world = lazy.world
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { try! world.step(count: 1) }
                benchmark.stopMeasurement()
            }
        }
        let triad = LazyTriad(bytes: items * bytesPerItem)
        Benchmark("triad over \(items) items' bytes") { benchmark in
            _ = triad.arrays
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(triad.run()) }
            benchmark.stopMeasurement()
        }
    }
}
