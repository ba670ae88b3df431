// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// A scene file (format `dynamics-scene/1`): everything needed to build and run a world without writing
/// Swift. JSON or YAML; ``SceneDocument/load(contentsOf:limits:warnings:)`` reads one and reports every problem.
///
/// Units are the package's: points, seconds, radians; masses from density · area / 10 000; gravity
/// direction 1 = 1000 pt/s² as in UIKit.
public struct SceneDocument: Hashable, Sendable {
    /// The format string every scene file starts with.
    public static let format = "dynamics-scene/1"

    /// A short name (reported in summaries), optional.
    public var name: String?
    /// What the scene shows, optional.
    public var summary: String?
    /// The reference bounds (pt), needed by a collision behaviour that turns them into a boundary.
    public var bounds: CGRect?
    /// How the world steps.
    public var configuration = SceneConfiguration()
    /// Items listed one by one.
    public var items: [SceneItem] = []
    /// Items made in bulk (created after the listed items, in order).
    public var generators: [SceneGenerator] = []
    /// Behaviours, in order: a later item behaviour overrides an earlier one's properties.
    public var behaviors: [SceneBehavior] = []
    /// Beyond UIKit: items and attachments the timeline's `make` events place as often as they like.
    public var templates: [SceneTemplate] = []
    /// Changes at given times, applied before the first step at or after their time.
    public var timeline: [SceneEvent] = []
    /// Beyond UIKit: named regions whose items a run counts (``SceneNamedRegion``).
    public var regions: [SceneNamedRegion] = []

    /// An empty scene.
    public init() {}
}

/// How a scene's world steps (the file's `configuration`). Command-line flags override these.
public struct SceneConfiguration: Hashable, Sendable {
    /// Steps per simulated second (default 60).
    public var stepsPerSecond: Double = 60
    /// Solver substeps per step (default 4).
    public var substeps = 4
    /// Whether steps take more substeps while a chain of rigid attachments turns fast (default true; see
    /// `DynamicsConfiguration.adaptiveSubsteps` in the Dynamics module).
    public var adaptiveSubsteps = true
    /// Contact stiffness, Hz (default 30).
    public var contactFrequency: Double = 30
    /// Solver passes per substep, 1…8 (default 1).
    public var solverIterations = 1
    /// Worker threads; nil: the machine's cores. Results do not depend on it.
    public var workers: Int?
    /// Seed of the random generators and of the world (default 0).
    public var seed: UInt64 = 0
    /// Simulated seconds a run lasts (default 5).
    public var duration: Double = 5
    /// Whether items at rest stop being stepped (default true).
    public var rest = true
    /// Highest SIMD path: automatic, scalar, sse2, neon, avx2, avx512 (default automatic).
    public var simd = "automatic"

    /// The defaults.
    public init() {}

    /// The world configuration these settings describe.
    public var dynamics: DynamicsConfiguration {
        var c = DynamicsConfiguration()
        c.stepsPerSecond = stepsPerSecond
        c.substeps = substeps
        c.adaptiveSubsteps = adaptiveSubsteps
        c.contactFrequency = contactFrequency
        c.solverIterations = solverIterations
        if let workers { c.workerCount = workers }
        c.seed = seed
        c.restDetection = rest
        c.simd = SIMDLevel(name: simd) ?? .automatic
        return c
    }
}
