// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Pinned results (as Box2D's determinism test pins its): every built-in scene, run for a fixed number of
/// steps at 1 and 2 workers (and on the scalar path), ends in the state hash recorded here. A change that alters a result must
/// change this table and say why in its commit.
@Suite struct StateHashTests {
    /// Scene, items, steps, hash (x86_64 and arm64 alike: the kernel's arithmetic is the same).
    static let pinned: [(String, Int, Int, UInt64)] = [
        ("default", 300, 120, 0xdcddaf54a7f452a0),
        ("integration", 300, 120, 0xd2c4a417f4747a4a),
        ("pile", 300, 120, 0x8fd26cee58322353),
        ("pile-circles", 300, 120, 0xe047e7f2c20beca0),
        ("pyramid", 220, 120, 0x9ff9278ef232429c),
        ("many_pyramids", 220, 120, 0xa8c68740437f4a24),
        ("smash", 300, 120, 0x5bd23311f13eb848),
        ("scatter", 300, 120, 0x010e7bdfbb64e406),
        ("scatter-giants", 300, 120, 0xa4b01b23820d7a75),
        ("joint_grid", 300, 120, 0x1fa744f239980e83),
        ("tumbler", 300, 120, 0xeba070ab4a10fa47),
        ("compounds", 300, 120, 0x8e4fde6315b380b4),
        ("washer", 300, 120, 0x5ac990d0b4997bc3),
        ("junkyard", 300, 120, 0xa00bd3fa4c659072),
        ("spinner", 300, 120, 0xc95d0abf305eb94d),
        ("rain", 11_000, 200, 0x5e5d559381ca71e8),
        ("chain", 300, 120, 0xfc3133c54cf04648),
        ("bridge", 300, 120, 0x426a6f9fe2b54c0a),
        ("fields", 300, 120, 0x4cfd7b3e64db38cb),
        ("sticky_corners", 2, 120, 0x1009d3ea855ade4e),
    ]

    @Test("every built-in scene reaches its pinned state hash at 1 and 2 workers", arguments: pinned.indices)
    func pinnedHash(k: Int) throws {
        let (name, items, steps, hash) = Self.pinned[k]
        let scene = try #require(Scene.named(name))
        for (workers, simd) in [(1, SIMDLevel.automatic), (2, .automatic), (2, .scalar)] {
            var configuration = DynamicsConfiguration()
            configuration.workerCount = workers
            configuration.simd = simd
            let run = try scene.makeRun(items: items, configuration: configuration) // the timeline too (junkyard)
            for _ in 0..<steps { try run.step() }
            let world = run.world
            let got = String(format: "0x%016llx", world.stateHash())
            #expect(world.stateHash() == hash, "\(name), \(items) items, \(steps) steps, \(workers) workers, SIMD \(simd): \(got)")
        }
    }

    @Test("the table covers every built-in scene")
    func coverage() {
        #expect(Set(Self.pinned.map(\.0)) == Set(Scene.builtIn.map(\.name)))
    }
}
