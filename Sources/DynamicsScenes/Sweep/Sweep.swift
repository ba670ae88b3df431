// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A parameter study (`dynamics sweep`, format `dynamics-sweep/1`): a base scene, fixed changes to it, and
/// parameters whose values combine into variants, each run for the same time and measured the same way.
///
/// ```yaml
/// format: dynamics-sweep/1
/// name: pile-friction
/// scene: pile-and-flick          # a built-in or example scene's name, or a scene file
/// seconds: 3
/// parameters:
///   - {pointer: /generators/0/material/friction, values: [0.1, 0.5, 0.9]}
///   - {pointer: /configuration/seed, random: {count: 4, seed: 1, min: 0, max: 1000000, integer: true}}
/// metrics: [stateHash, kineticEnergy, timeToRest, contactEvents, {highest: height}]
/// ```
///
/// Parameters are JSON Pointers (RFC 6901) into the scene as a scene file writes it (a built-in scene's
/// `dynamics scenes --export`), so anything a scene file holds can be swept. The variants and their order
/// depend only on the sweep: ``variant(_:)`` gives each, with a stable index and id, for indices below
/// ``variantCount``.
public struct Sweep: Hashable, Sendable {
    /// The sweep's name (default: the file's name).
    public var name: String?
    /// What the sweep studies, for people.
    public var description: String?
    /// The base scene.
    public var scene: SweepScene
    /// Items of a built-in base scene (default: the scene's own count).
    public var items: Int?
    /// Simulated seconds per variant (default: the scene's duration).
    public var seconds: Double?
    /// Changes made to the base scene before the parameters, in order.
    public var fixed: [SweepAssignment] = []
    /// The parameters, each with its values.
    public var parameters: [SweepParameter] = []
    /// How the parameters' values combine.
    public var combination: Combination = .grid
    /// What is measured per variant.
    public var metrics: [SweepMetric] = [.stateHash]
    /// Per-variant outputs, by extension (`csv`, `jsonl`, `npz`, `svg`, `html`), as `dynamics simulate` writes them.
    public var outputs: [String] = []
    /// Steps between frames of the per-variant trajectory outputs (default 1).
    public var every = 1
    /// Beyond UIKit: a checkpoint of the base scene's run (`dynamics simulate SCENE --checkpoint FILE --pause-at
    /// T`; a path relative to the sweep file) that every variant starts from instead of the scene's start: the
    /// base is settled once. The variants may then differ from the base only in what comes after the
    /// checkpoint: timeline events not yet due at its time, and the solver's settings (see
    /// `SceneRun.init(_:continuing:checkpoint:workerCount:)`). Metrics and outputs cover the steps after it.
    public var start: String?

    /// How parameter values combine into variants.
    public enum Combination: String, Hashable, Sendable {
        /// Every combination (the cartesian product); the first parameter varies slowest.
        case grid
        /// The k-th value of every parameter together; every parameter has as many values.
        case zip
    }

    /// Creates a sweep of `scene`.
    public init(scene: SweepScene) { self.scene = scene }
}
