// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// A scene file's world, running: builds the world from a ``SceneDocument``, keeps its named items and
/// behaviours, and applies the timeline's events as the run reaches their times.
///
/// ```swift
/// let document = try SceneDocument.load(contentsOf: url)
/// let run = try SceneRun(document)
/// while run.time < document.configuration.duration { try run.step() }
/// print(run.world.stateHash())
/// ```
public final class SceneRun {
    /// The document the run was built from.
    public let document: SceneDocument
    /// The world.
    public internal(set) var world: DynamicWorld
    /// Every item's id string, in creation order: listed items, then each generator's, then those the
    /// timeline's `make` events add (`INSTANCE/ID`). A removed item keeps its place (``isRemoved``).
    public internal(set) var itemNames: [String]
    /// Every item's world id, in the same order (a removed item's id is stale).
    public internal(set) var itemIDs: [ItemID]
    /// Whether the item at each place was removed by the timeline (a template instance's item).
    public internal(set) var isRemoved: [Bool]
    /// How many items the document itself gives (listed and generated): the first places, which the
    /// timeline never removes.
    public let documentItemCount: Int
    /// Steps taken.
    public internal(set) var steps = 0
    /// The boundary identifiers by world boundary (the reference-bounds boundary has none).
    public internal(set) var boundaryNames: [BoundaryID: String] = [:]

    var index: [String: Int]
    var tags: [String: [Int]]
    var base: [SceneMaterial]
    /// Each item's shape, in creation order (as ``itemNames``).
    public internal(set) var shapes: [SceneShape]
    /// Each item's exclusion group (``SceneItem/exclusionGroup``; 0 for generated items).
    var exclusionGroups: [Int]
    /// The items of each live template instance, by name.
    var instances: [String: Range<Int>] = [:]
    /// The templates by id, and each one's items with its generators' (``SceneTemplate/allItems(seed:)``).
    let templates: [String: SceneTemplate]
    let templateItems: [String: [SceneItem]]
    var gravitySet = false, forcesSet = false
    var applied: [SceneMaterial]
    var live: [LiveBehavior] = []
    var pending: [SceneEvent]
    var nextEvent = 0
    /// The collision behaviours' groups per item (behaviour k is bit k), each behaviour's boundaries, and
    /// the index of each collision behaviour with an id (buildCollisions; a timeline may remove one).
    var itemGroups: [UInt64] = [], boundaryGroups: [UInt64] = []
    var collisionBoundaries: [[BoundaryID]] = []
    var collisionIndex: [String: Int] = [:]
    /// The collision behaviours by group (nil once removed), for items made later.
    var collisions: [SceneCollision?] = []
    /// Per named region, whether each item (by place) was in it after the last step (SceneRun+Regions.swift).
    var regionInside: [[Bool]] = []
    /// Beyond UIKit: the items that entered or left the document's named regions during the last step, region by
    /// region in the document's order, items in place order.
    public internal(set) var regionEvents: [SceneRegionEvent] = []
    /// Beyond UIKit: entries into each named region since the start, in the document's order.
    public internal(set) var regionEntries: [Int] = []

    /// A behaviour of the running scene and what it made in the world.
    struct LiveBehavior {
        var behavior: SceneBehavior
        var attachment: AttachmentID?
        var field: FieldID?
        var length: CGFloat = 0
    }

    /// Simulated seconds since the start.
    public var time: Double { Double(steps) / world.configuration.stepsPerSecond }

    /// Builds the world of `document` with `configuration` (default: the document's own).
    public init(_ document: SceneDocument, configuration: DynamicsConfiguration? = nil) throws(DynamicsError) {
        self.document = document
        let world = try DynamicWorld(configuration: configuration ?? document.configuration.dynamics)
        self.world = world
        var names: [String] = [], materials: [SceneMaterial] = [], tags: [String: [Int]] = [:], shapes: [SceneShape] = []
        var exclusions: [Int] = []
        var made: [ItemID] = []
        // Consecutive items with the same description are made in one call.
        var run: (description: ItemDescription, positions: [CGPoint], angles: [CGFloat])?
        func flush() throws(DynamicsError) {
            if let r = run { made += try world.createItems(r.description, at: r.positions, angles: r.angles) }
            run = nil
        }
        func addItem(_ name: String, _ shape: SceneShape, _ material: SceneMaterial, _ center: CGPoint, _ angle: CGFloat,
                 _ itemTags: [String], exclusion: Int = 0) throws(DynamicsError)
        {
            exclusions.append(exclusion)
            let description = Self.description(shape, material)
            if run?.description != description { try flush() }
            if run == nil { run = (description, [], []) }
            run!.positions.append(Self.position(of: shape, at: center, angle: angle))
            run!.angles.append(angle)
            for tag in itemTags { tags[tag, default: []].append(names.count) }
            names.append(name)
            materials.append(material)
            shapes.append(shape)
        }
        for item in document.items {
            try addItem(item.id, item.shape, item.material, item.center, item.angle, item.tags, exclusion: item.exclusionGroup)
        }
        let generated: [[(center: CGPoint, shape: SceneShape)]]
        do {
            generated = try document.generatedItems()
        } catch {
            throw .invalidValue(field: "generators[\(error.generator)].count", value: Double(error.count), index: error.placed)
        }
        for (g, placements) in zip(document.generators, generated) {
            for (k, placed) in placements.enumerated() {
                try addItem("\(g.id)-\(k)", placed.shape, g.material, placed.center, g.angle, [g.id] + g.tags)
            }
        }
        try flush()
        itemNames = names
        itemIDs = made
        isRemoved = Array(repeating: false, count: made.count)
        documentItemCount = made.count
        exclusionGroups = exclusions
        templates = Dictionary(document.templates.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var expanded: [String: [SceneItem]] = [:]
        for (k, t) in document.templates.enumerated() where expanded[t.id] == nil {
            do {
                expanded[t.id] = try t.allItems(seed: document.configuration.seed)
            } catch {
                throw .invalidValue(field: "templates[\(k)].generators[\(error.generator)].count", value: Double(error.count),
                                    index: error.placed)
            }
        }
        templateItems = expanded
        base = materials
        self.shapes = shapes
        applied = materials
        self.tags = tags
        index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        pending = document.timeline.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        let moving = document.items.enumerated().filter { $0.element.velocity != CGVector(dx: 0, dy: 0) || $0.element.angularVelocity != 0 }
        if !moving.isEmpty {
            try world.setVelocities(moving.map(\.element.velocity), angular: moving.map(\.element.angularVelocity),
                                    for: moving.map { made[$0.offset] })
        }
        try buildCollisions()
        for behavior in document.behaviors where !Self.isCollision(behavior) { try add(behavior) }
        try applyAggregates()
        // Last: adding shapes and behaviours wakes the items they hold.
        var resting = document.items.indices.filter { document.items[$0].resting }.map { made[$0] }
        var next = document.items.count
        for g in document.generators {
            if g.resting { resting += made[next..<(next + g.count)] }
            next += g.count
        }
        if !resting.isEmpty { try world.putToRest(resting) }
        startRegions()
    }

    /// Where the world places an item whose outline has its `center` there, turned by `angle`: a group's item
    /// sits at its centre of mass.
    static func position(of shape: SceneShape, at center: CGPoint, angle: CGFloat) -> CGPoint {
        let com = shape.centerOfMass
        return CGPoint(x: center.x + cos(angle) * com.x - sin(angle) * com.y, y: center.y + sin(angle) * com.x + cos(angle) * com.y)
    }

    static func isCollision(_ b: SceneBehavior) -> Bool {
        if case .collision = b.kind { return true }
        return false
    }

    /// The item description of a shape and material.
    static func description(_ shape: SceneShape, _ m: SceneMaterial) -> ItemDescription {
        var d = ItemDescription()
        switch shape {
        case .rectangle(let w, let h): d.shape = .rectangle(width: w, height: h)
        case .ellipse(let w, let h): d.shape = .ellipse(width: w, height: h)
        case .polygon(let points): d.shape = .polygon(points, density: m.density)
        case .capsule(let w, let h): d.shape = (try? .capsule(width: w, height: h, density: m.density)) ?? .rectangle(width: w, height: h)
        case .roundedRectangle(let w, let h, let r):
            d.shape = (try? .roundedRectangle(width: w, height: h, cornerRadius: r, density: m.density)) ?? .rectangle(width: w, height: h)
        case .roundedPolygon(let points, let r):
            d.shape = (try? .roundedPolygon(points, radius: r, density: m.density)) ?? .polygon(points, density: m.density)
        case .group:
            let g = shape.compound(density: m.density), size = shape.extent
            d.shape = .compound(mass: g.mass, inertia: g.inertia, width: size.width, height: size.height)
        }
        d.density = m.density
        d.isAnchored = m.anchored
        d.isKinematic = m.kinematic
        d.allowsRotation = m.allowsRotation
        d.resistance = m.resistance
        d.angularResistance = m.angularResistance
        d.elasticity = m.elasticity
        d.friction = m.friction
        d.charge = m.charge
        return d
    }

    /// The indices (creation order) of the targets' items that are not removed; every such item for empty targets.
    public func indices(of targets: SceneTargets) -> [Int] {
        if targets.items.isEmpty && targets.tags.isEmpty { return itemIDs.indices.filter { !isRemoved[$0] } }
        var chosen = Set<Int>()
        for id in targets.items { if let i = index[id] { chosen.insert(i) } }
        for tag in targets.tags { chosen.formUnion(tags[tag] ?? []) }
        return chosen.filter { !isRemoved[$0] }.sorted()
    }

    /// Applies the events due by now, then steps the world once.
    public func step() throws(DynamicsError) {
        try applyDueEvents()
        try world.step(count: 1)
        steps += 1
        if !document.regions.isEmpty { updateRegions() }
    }

    /// Applies the timeline's events due by now (at the start of step `steps + 1`).
    func applyDueEvents() throws(DynamicsError) {
        let stepsPerSecond = world.configuration.stepsPerSecond
        while nextEvent < pending.count, pending[nextEvent].time * stepsPerSecond <= Double(steps) + 1e-9 {
            let event = pending[nextEvent]
            try apply(event)
            nextEvent += 1
            // A repeating event comes back `every` s later, after the events due by then (it keeps its place
            // among events of the same time as the file's order does).
            if let (every, count) = event.repeating, count.map({ $0 > 1 }) ?? true {
                var next = event
                next.time = event.time + every
                next.repeating = (every, count.map { $0 - 1 })
                next.occurrence = event.occurrence + 1
                let at = pending[nextEvent...].firstIndex { $0.time > next.time } ?? pending.count
                pending.insert(next, at: at)
            }
        }
    }
}
