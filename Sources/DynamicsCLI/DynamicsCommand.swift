// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Dynamics
import DynamicsScenes
import Foundation

@main
struct DynamicsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynamics",
        abstract: "Batch rigid-body dynamics with UIKit Dynamics semantics.",
        discussion: """
            Runs built-in scenes and scene files (JSON or YAML, format dynamics-scene/1) headless, writes \
            trajectories, and reports timing. Units: points, seconds, radians; gravity \
            magnitude 1 is 1000 pt/s². The environment variable DYNAMICS_SIMD (scalar, sse2, avx2, avx512, \
            neon) caps the SIMD path when --simd is not given.
            """,
        version: "dynamics \(DynamicsBuild.version) (commit \(DynamicsBuild.commit); SIMD paths \(DynamicsBuild.simdPaths.joined(separator: ", ")), "
            + "this CPU \(DynamicWorld.bestSIMDPath); BLAS \(DynamicWorld.blasLibrary))",
        subcommands: [Simulate.self, Validate.self, Schema.self, Bench.self, Scenes.self, Spring.self, SweepCommand.self]
    )
}

func scene(named name: String) throws -> Scene {
    guard let scene = Scene.named(name) else {
        let names = Scene.builtIn.map(\.name).joined(separator: ", ")
        throw ValidationError("unknown scene '\(name)' (built-in scenes: \(names))")
    }
    return scene
}
