// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// A built-in scene: a named scene document, made for a chosen number of items. The CLI, the tests and the
/// benchmarks all build worlds from these, so they run the same scenes; `dynamics scenes --export NAME`
/// writes the document as a scene file.
public struct Scene: Sendable {
    /// The name used on the command line (`dynamics simulate NAME`).
    public let name: String
    /// One line describing the scene.
    public let summary: String
    /// Items when the caller does not choose.
    public let defaultItems: Int
    /// Simulated seconds `dynamics simulate` runs.
    public let defaultSeconds: Double
    /// The shape name reported by benchmarks (`box`, `circle`, `compound`, `polygon` or `mixed`).
    public let shape: String
    /// Whether the scene keeps rest detection on (the reference benchmark scenes turn it off).
    public let restDetection: Bool
    private let make: @Sendable (Int) -> SceneDocument

    /// Creates a scene from a function that writes its document for a number of items.
    public init(name: String, summary: String, defaultItems: Int, defaultSeconds: Double, shape: String = "box",
                restDetection: Bool = true, document: @escaping @Sendable (Int) -> SceneDocument)
    {
        self.name = name
        self.summary = summary
        self.defaultItems = defaultItems
        self.defaultSeconds = defaultSeconds
        self.shape = shape
        self.restDetection = restDetection
        make = document
    }

    /// The scene's document with `items` items (default ``defaultItems``): its name, summary, duration and
    /// rest setting filled in.
    public func document(items: Int? = nil) -> SceneDocument {
        var d = make(items ?? defaultItems)
        d.name = name
        d.summary = summary
        d.configuration.duration = defaultSeconds
        d.configuration.rest = restDetection
        return d
    }

    /// Builds a world with this scene (items default to ``defaultItems``) and `configuration`. Rest detection
    /// is the configuration's, turned off for a scene that turns it off, unless `keepRestDetection` (a pile
    /// timed at rest). The world does not run the scene's timeline: ``makeRun(items:configuration:keepRestDetection:)``
    /// does (`junkyard` drives its pusher from its timeline).
    public func makeWorld(items: Int? = nil, configuration: DynamicsConfiguration = .init(),
                          keepRestDetection: Bool = false) throws(DynamicsError) -> DynamicWorld
    {
        try makeRun(items: items, configuration: configuration, keepRestDetection: keepRestDetection).world
    }

    /// The scene's run (as ``makeWorld(items:configuration:keepRestDetection:)`` builds its world), whose
    /// ``SceneRun/step()`` applies the timeline's events due before each step.
    public func makeRun(items: Int? = nil, configuration: DynamicsConfiguration = .init(),
                        keepRestDetection: Bool = false) throws(DynamicsError) -> SceneRun
    {
        let count = items ?? defaultItems
        guard count >= 1 else { throw .invalidValue(field: "items", value: Double(count), index: nil) }
        var configuration = configuration
        if !restDetection && !keepRestDetection { configuration.restDetection = false }
        return try SceneRun(document(items: count), configuration: configuration)
    }
}

extension SceneDocument {
    /// Items of one shape and material at `centers`, with ids `prefix-N` (and the tag `prefix` when `tagged`).
    static func listed(_ prefix: String, _ shape: SceneShape, _ centers: [CGPoint], material: SceneMaterial = .init(),
                       tagged: Bool = false) -> [SceneItem]
    {
        centers.enumerated().map { k, c in
            var item = SceneItem(id: "\(prefix)-\(k)", shape: shape, center: c)
            item.material = material
            if tagged { item.tags = [prefix] }
            return item
        }
    }

    /// A collision behaviour over `targets` with the given segments as boundaries.
    static func collision(_ targets: SceneTargets = .all, mode: SceneCollision.Mode = .everything,
                          segments: [(String, CGPoint, CGPoint)] = []) -> SceneBehavior
    {
        var c = SceneCollision()
        c.targets = targets
        c.mode = mode
        c.boundaries = segments.map { .init(id: $0.0, shape: .segment(from: $0.1, to: $0.2)) }
        return SceneBehavior(id: "collision", .collision(c))
    }

    /// Gravity of 1000 pt/s² down on `targets`.
    static func gravity(_ targets: SceneTargets = .all) -> SceneBehavior {
        SceneBehavior(id: "gravity", .gravity(direction: CGVector(dx: 0, dy: 1), targets: targets))
    }
}
