import Dynamics
import Foundation

/// A built-in scene: a named recipe that fills a ``DynamicWorld``. The CLI, the tests and the benchmarks
/// all build worlds from these, so they run the same scenes.
public struct Scene: Sendable {
    /// The name used on the command line (`dynamics simulate NAME`).
    public let name: String
    /// One line describing the scene.
    public let summary: String
    /// Items when the caller does not choose.
    public let defaultItems: Int
    /// Simulated seconds `dynamics simulate` runs.
    public let defaultSeconds: Double
    /// The shape name reported by benchmarks (`box` or `circle`).
    public let shape: String
    /// Whether the scene turns rest detection off (the reference scenes of BENCH-SCENES.md do).
    public let restDetection: Bool
    private let populate: @Sendable (DynamicWorld, Int) throws(DynamicsError) -> Void

    /// Creates a scene from a function that fills an empty world with `items` items.
    public init(name: String, summary: String, defaultItems: Int, defaultSeconds: Double, shape: String = "box",
                restDetection: Bool = true,
                populate: @escaping @Sendable (DynamicWorld, Int) throws(DynamicsError) -> Void)
    {
        self.name = name
        self.summary = summary
        self.defaultItems = defaultItems
        self.defaultSeconds = defaultSeconds
        self.shape = shape
        self.restDetection = restDetection
        self.populate = populate
    }

    /// Builds a world with this scene (items default to ``defaultItems``). Rest detection is the
    /// configuration's, turned off for a scene that turns it off, unless `keepRestDetection` (a pile timed at
    /// rest).
    public func makeWorld(items: Int? = nil, configuration: DynamicsConfiguration = .init(),
                          keepRestDetection: Bool = false) throws(DynamicsError) -> DynamicWorld
    {
        let count = items ?? defaultItems
        guard count >= 1 else { throw .invalidValue(field: "items", value: Double(count), index: nil) }
        var configuration = configuration
        if !restDetection && !keepRestDetection { configuration.restDetection = false }
        let world = try DynamicWorld(configuration: configuration)
        try populate(world, count)
        return world
    }
}
