// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The structure-of-arrays world under every ``DynamicAnimator``, usable on its own for batch work.
///
/// Items are created in bulk from an ``ItemDescription`` and arrays of positions and are named by
/// ``ItemID`` values; forces, gravity and velocities are applied to sets of ids; state is read as
/// contiguous columns (see ``withColumn(_:_:)``). No Swift object exists per item.
///
/// ```swift
/// let world = try DynamicWorld()
/// let ids = try world.createItems(ItemDescription(), at: points)
/// try world.setGravity(CGVector(dx: 0, dy: 1000), for: ids)   // pt/s²
/// try world.step(by: 1.0)                                    // 60 steps of 1/60 s
/// let lowest = world.withColumn(.positionY) { ys in (0..<ys.count).map { ys[$0] }.max() }
/// ```
///
/// A world is used from one thread at a time; a step uses ``DynamicsConfiguration/workerCount`` threads
/// internally and gives bit-identical results for any worker count.
public final class DynamicWorld {
    /// The configuration type (shared with ``DynamicAnimator``).
    public typealias Configuration = DynamicsConfiguration

    /// A column of per-item state, in the dense order of ``itemIDs()``.
    public enum Column: CaseIterable, Sendable {
        /// Centre x, pt.
        case positionX
        /// Centre y, pt (+y down).
        case positionY
        /// Rotation, rad.
        case angle
        /// Velocity x, pt/s.
        case velocityX
        /// Velocity y, pt/s.
        case velocityY
        /// Angular velocity, rad/s.
        case angularVelocity
        /// Mass (100 × 100 pt at density 1 = 1); 0 is never stored, anchored items keep their shape's mass.
        case mass
        /// Seconds each item has spent below the rest thresholds.
        case restTime
    }

    let kernel: KernelWorld
    /// The configuration in force.
    public private(set) var configuration: Configuration
    /// Simulated seconds stepped so far.
    public private(set) var elapsedTime: TimeInterval = 0
    /// Fixed steps taken so far.
    public private(set) var stepCount = 0
    private var pendingTime: TimeInterval = 0
    /// Column views open now (``withColumn(_:_:)`` calls may nest); every call that changes the world traps
    /// while one is open, because it could move, free or rewrite the memory the view reads.
    private var openColumnViews = 0

    /// Creates an empty world. Throws when a configuration field is out of range.
    public init(configuration: Configuration = .init()) throws(DynamicsError) {
        self.configuration = configuration
        kernel = try KernelWorld(configuration: configuration)
    }

    /// A world over a kernel world made elsewhere (read from a snapshot: DynamicWorld+Snapshots.swift).
    init(kernel: KernelWorld, configuration: Configuration, elapsedTime: TimeInterval, stepCount: Int,
         pendingTime: TimeInterval)
    {
        self.kernel = kernel
        self.configuration = configuration
        self.elapsedTime = elapsedTime
        self.stepCount = stepCount
        self.pendingTime = pendingTime
    }

    /// The simulated time carried to the next ``step(by:)`` call: less than one step, s.
    var pendingStepTime: TimeInterval { pendingTime }

    /// Changes SIMD level, integrator, worker count, rates or rest detection between steps.
    public func reconfigure(_ configuration: Configuration) throws(DynamicsError) {
        requireNoColumnView("reconfigure")
        try kernel.configure(configuration)
        self.configuration = configuration
    }

    /// The number of items.
    public var itemCount: Int { kernel.itemCount }
    /// The number of items that are not resting.
    public var awakeItemCount: Int { kernel.awakeCount }
    /// The number of items resting: skipped by every stage of a step until something wakes them.
    public var restingItemCount: Int { kernel.itemCount - kernel.awakeCount }
    /// The number of islands: groups of moving items joined by touching contacts or attachments, which come
    /// to rest together (when every member has been below the rest speeds for the rest time) and wake
    /// together. An item joined to nothing is an island of its own; anchored items belong to none, so two
    /// piles on the same floor are two islands. Counted on demand, in O(items).
    public var islandCount: Int { kernel.islandCount }
    /// The SIMD path in use (`avx512`, `avx2`, `sse2`, `neon` or `scalar`).
    public var simdPath: String { kernel.simdLevelName }
    /// The best SIMD path this CPU supports.
    public static var bestSIMDPath: String { KernelWorld.bestSimdLevelName }
    /// The BLAS shared library answering `cblas_saxpy` (e.g. Debian's reference BLAS or OpenBLAS), or "static" when
    /// BLAS is linked into the executable (`make dist`).
    public static var blasLibrary: String { KernelWorld.blasLibraryPath }
    /// Timing of the last step.
    public var lastStepProfile: StepProfile { kernel.profile }

    // MARK: items

    /// Creates one item per position (pt), all sharing `description`; `angles` (rad) default to 0.
    /// Returns the new ids in the order of `positions`. Throws, creating nothing, on bad data.
    @discardableResult
    public func createItems(_ description: ItemDescription, at positions: [CGPoint], angles: [CGFloat]? = nil)
        throws(DynamicsError) -> [ItemID]
    {
        requireNoColumnView("createItems")
        if let angles, angles.count != positions.count {
            throw .invalidValue(field: "angles.count", value: Double(angles.count), index: nil)
        }
        return try kernel.createItems(description, x: positions.map { Float($0.x) }, y: positions.map { Float($0.y) },
                                      angle: angles?.map { Float($0) })
    }

    /// Removes items. A stale or repeated id throws and removes nothing; every other id stays valid.
    public func removeItems(_ ids: [ItemID]) throws(DynamicsError) {
        requireNoColumnView("removeItems")
        try kernel.removeItems(ids)
    }

    /// Whether `id` names an item of this world.
    public func contains(_ id: ItemID) -> Bool { kernel.isValid(id) }

    /// Every id in dense order: element k of every column belongs to `itemIDs()[k]`.
    /// Dense order changes when items are created, removed, come to rest or wake.
    public func itemIDs() -> [ItemID] { kernel.itemIDs() }

    /// The dense row of each id (its index in every column), or nil for a stale id.
    public func rows(of ids: [ItemID]) -> [Int?] { kernel.rows(of: ids).map { $0 < 0 ? nil : Int($0) } }

    /// Calls `body` with a read-only, zero-copy view of one column in dense order.
    ///
    /// The view is valid only inside `body`, and the world must not change while it is open: calling any
    /// method that changes this world from inside `body` (creating or removing items, a setter, ``wake(_:)``,
    /// ``putToRest(_:)``, ``step(by:)``, ``reconfigure(_:)``, …) traps with a message naming the call,
    /// since it could move or free the memory the view reads. Reading (other columns, ``pose(of:)``,
    /// ``stateHash()``) is allowed, and views may nest.
    public func withColumn<R>(_ column: Column, _ body: (Span<Float>) throws -> R) rethrows -> R {
        openColumnViews += 1
        defer { openColumnViews -= 1 }
        return try kernel.withColumn(column.kernelColumn, body)
    }

    /// Traps, naming `owner.call`, when a column view of this world is open (see ``withColumn(_:_:)``).
    func requireNoColumnView(_ call: String, of owner: String = "DynamicWorld") {
        require(openColumnViews == 0,
                "\(owner).\(call) called inside withColumn: a world must not change while a view of its columns is open")
    }

    /// Wakes resting items (all of them when `ids` is nil).
    public func wake(_ ids: [ItemID]? = nil) {
        requireNoColumnView("wake")
        kernel.wake(ids)
    }

    /// Puts items to rest as if they had come to rest, each with the items it touches or is attached to
    /// (its island): steps skip them until something wakes them (see <doc:UnitsAndSemantics>, §Rest), as
    /// Box2D creates bodies asleep. A pile or a wall built already settled can start at rest, so that only
    /// what disturbs it costs anything. Items keep their velocities (pt/s), which they move with once
    /// woken. Members of an animated noise field stay awake (such a field changes with time, so its items
    /// never rest). Throws ``DynamicsError/staleID(_:)`` for a stale id, and then changes nothing.
    public func putToRest(_ ids: [ItemID]) throws(DynamicsError) {
        requireNoColumnView("putToRest")
        try kernel.rest(ids)
    }

    // MARK: stepping

    /// The longest duration one ``step(by:)`` call (or an animator's `step(by:)` or `runUntilPaused(timeout:)`)
    /// accepts: 10⁶ s, 6·10⁷ steps at the default rate.
    public static let maximumStepDuration: TimeInterval = 1_000_000

    /// Advances by fixed steps of 1/``DynamicsConfiguration/stepsPerSecond`` covering `duration` seconds;
    /// a remainder shorter than a step is carried to the next call. Throws for a duration outside
    /// 0…``maximumStepDuration`` s, and ``DynamicsError/outOfMemory(field:value:)`` (field `step`) when a
    /// step cannot get its memory: that step changes nothing (its contact events are still the last
    /// step's), and the steps before it stand.
    public func step(by duration: TimeInterval) throws(DynamicsError) {
        requireNoColumnView("step(by:)")
        guard duration.isFinite, duration >= 0, duration <= Self.maximumStepDuration else {
            throw .invalidValue(field: "duration", value: duration, index: nil)
        }
        pendingTime += duration
        let rate = configuration.stepsPerSecond
        let steps = Int((pendingTime * rate + 1e-9).rounded(.down))
        pendingTime = max(0, pendingTime - Double(steps) / rate)
        for _ in 0..<steps { try stepOnce() }
    }

    /// Advances by exactly `count` fixed steps (0 does nothing). Throws for a negative count.
    public func step(count: Int) throws(DynamicsError) {
        requireNoColumnView("step(count:)")
        guard count >= 0 else { throw .invalidValue(field: "count", value: Double(count), index: nil) }
        for _ in 0..<count { try stepOnce() }
    }

    func stepOnce() throws(DynamicsError) {
        requireNoColumnView("step")
        try kernel.step(dt: configuration.stepDuration, substeps: configuration.substeps)
        elapsedTime += configuration.stepDuration
        stepCount += 1
    }
}

extension DynamicWorld.Column {
    var kernelColumn: KernelColumn {
        switch self {
        case .positionX: .positionX
        case .positionY: .positionY
        case .angle: .angle
        case .velocityX: .velocityX
        case .velocityY: .velocityY
        case .angularVelocity: .angularVelocity
        case .mass: .mass
        case .restTime: .sleepTime
        }
    }
}
