// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel
import Synchronization
import Foundation

/// Owns one C kernel world. The only type that holds the kernel pointer; column access happens inside
/// scoped closures. Not thread-safe: a ``DynamicWorld`` uses it from one thread at a time.
final class KernelWorld {
    let raw: OpaquePointer
    /// This world's tag in its item ids (1, 2, … in creation order; 0 is never a world's).
    let tag: UInt32

    /// The last tag given (shared by every world of the process, so that no two worlds share one).
    private static let tags = Atomic<UInt32>(0)

    init(configuration: DynamicsConfiguration) throws(DynamicsError) {
        var next = Self.tags.wrappingAdd(1, ordering: .relaxed).newValue
        if next == 0 { next = Self.tags.wrappingAdd(1, ordering: .relaxed).newValue }
        tag = next
        try configuration.validate()
        var def = Self.hostDef(configuration)
        var error = dkError()
        guard let world = dkWorld_Create(&def, &error) else { throw DynamicsError(error) }
        raw = world
        dkWorld_SetSeed(raw, configuration.seed)
    }

    /// Takes ownership of a kernel world made elsewhere (a snapshot read: KernelWorld+Snapshots.swift).
    init(adopting world: OpaquePointer) {
        var next = Self.tags.wrappingAdd(1, ordering: .relaxed).newValue
        if next == 0 { next = Self.tags.wrappingAdd(1, ordering: .relaxed).newValue }
        tag = next
        raw = world
    }

    deinit { dkWorld_Destroy(raw) }

    /// Applies a configuration; `seed` false keeps the noise fields' seed as it is (a world read from a
    /// snapshot has the written world's seed and waves already).
    func configure(_ configuration: DynamicsConfiguration, seed: Bool = true) throws(DynamicsError) {
        try configuration.validate()
        var def = Self.worldDef(configuration)
        var error = dkError()
        try check(dkWorld_Configure(raw, &def, &error), error)
        if seed { dkWorld_SetSeed(raw, configuration.seed) }
    }

    /// The kernel's world definition for a validated configuration, with this host's tasks and allocator.
    static func hostDef(_ configuration: DynamicsConfiguration) -> dkWorldDef {
        var def = worldDef(configuration)
        def.runTasks = kernelRunTasks
        if let hook = configuration.allocationHook {
            def.allocator = dkAllocator(allocate: hook.allocate, release: hook.release, context: hook.context)
        }
        return def
    }

    /// The kernel's world definition for a validated configuration.
    static func worldDef(_ configuration: DynamicsConfiguration) -> dkWorldDef {
        var def = dkDefaultWorldDef()
        def.workerCount = Int32(configuration.workerCount)
        def.simdLimit = configuration.simd.kernelLimit
        def.integrator = configuration.integrator.kernelValue
        def.restEnabled = configuration.restDetection
        def.adaptiveSubsteps = configuration.adaptiveSubsteps
        def.contactHertz = Float(configuration.contactFrequency)
        def.solverIterations = Int32(configuration.solverIterations)
        return def
    }

    var itemCount: Int { Int(dkWorld_ItemCount(raw)) }
    var awakeCount: Int { Int(dkWorld_AwakeCount(raw)) }
    var islandCount: Int { Int(dkWorld_IslandCount(raw)) }
    var simdLevelName: String { String(cString: dkSimdLevelName(dkWorld_SimdLevel(raw))) }
    static var bestSimdLevelName: String { String(cString: dkSimdLevelName(dkCpuBestSimdLevel())) }
    static var blasLibraryPath: String {
        guard let loaded = dkBlasLibraryPath() else { return "unknown" }
        guard let resolved = realpath(loaded, nil) else { return String(cString: loaded) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    func createItems(_ description: ItemDescription, x: [Float], y: [Float], angle: [Float]?)
        throws(DynamicsError) -> [ItemID]
    {
        var def = try description.kernelDef()
        var ids = [dkItemId](repeating: dkItemId(), count: x.count)
        var error = dkError()
        let result = x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in
                ids.withUnsafeMutableBufferPointer { out in
                    if let angle {
                        return angle.withUnsafeBufferPointer { a in
                            dkWorld_CreateItems(raw, &def, xs.baseAddress, ys.baseAddress, a.baseAddress,
                                                Int32(xs.count), out.baseAddress, &error)
                        }
                    }
                    return dkWorld_CreateItems(raw, &def, xs.baseAddress, ys.baseAddress, nil, Int32(xs.count),
                                               out.baseAddress, &error)
                }
            }
        }
        try check(result, error)
        return ids.map(itemID)
    }

    func removeItems(_ ids: [ItemID]) throws(DynamicsError) {
        let kids = ids.map(kernelID)
        var error = dkError()
        let result = kids.withUnsafeBufferPointer { dkWorld_RemoveItems(raw, $0.baseAddress, Int32($0.count), &error) }
        try check(result, error, ids: ids)
    }

    func isValid(_ id: ItemID) -> Bool { dkWorld_IsValid(raw, kernelID(id)) }

    /// Dense rows of the ids (-1 for a stale id).
    func rows(of ids: [ItemID]) -> [Int32] {
        let kids = ids.map(kernelID)
        return [Int32](unsafeUninitializedCapacity: kids.count) { out, n in
            kids.withUnsafeBufferPointer { dkWorld_DenseIndices(raw, $0.baseAddress, Int32($0.count), out.baseAddress) }
            n = kids.count
        }
    }

    func itemIDs() -> [ItemID] {
        let n = itemCount
        let kids = [dkItemId](unsafeUninitializedCapacity: n) { out, count in
            dkWorld_ItemIds(raw, out.baseAddress)
            count = n
        }
        return kids.map(itemID)
    }

    func step(dt: Double, substeps: Int) throws(DynamicsError) {
        var error = dkError()
        try check(dkWorld_Step(raw, Float(dt), Int32(substeps), &error), error)
    }

    var profile: StepProfile { StepProfile(dkWorld_Profile(raw)) }

    func energy() -> (kinetic: Double, momentumX: Double, momentumY: Double) {
        let e = dkWorld_Energy(raw)
        return (e.kinetic, e.momentumX, e.momentumY)
    }

    func maxAwakeSpeedComponent() -> Float { dkWorld_MaxAwakeSpeedComponent(raw) }

    /// Poses (x, y, angle) of every item in dense order.
    func packedPoses() -> [Float] {
        let n = itemCount * 3
        return [Float](unsafeUninitializedCapacity: n) { out, count in
            dkWorld_PackPoses(raw, out.baseAddress)
            count = n
        }
    }

    func wake(_ ids: [ItemID]?) {
        guard let ids else { return dkWorld_Wake(raw, nil, 0) }
        let kids = ids.map(kernelID)
        kids.withUnsafeBufferPointer { dkWorld_Wake(raw, $0.baseAddress, Int32($0.count)) }
    }

    func rest(_ ids: [ItemID]) throws(DynamicsError) {
        let kids = ids.map(kernelID)
        var error = dkError()
        let result = kids.withUnsafeBufferPointer { dkWorld_Rest(raw, $0.baseAddress, Int32($0.count), &error) }
        try check(result, error, ids: ids)
    }

    // MARK: columns

    /// Calls `body` with a read-only view of one column in dense order; the view must not escape.
    func withColumn<R>(_ column: KernelColumn, _ body: (Span<Float>) throws -> R) rethrows -> R {
        let n = itemCount
        guard let base = dkWorld_Column(raw, column.kernel) else { fatalError("unknown column") }
        let buffer = UnsafeBufferPointer(start: base, count: n)
        return try body(buffer.span)
    }

    func set(_ column: KernelColumn, ids: [ItemID], values: [Float]) throws(DynamicsError) {
        let kids = ids.map(kernelID)
        var error = dkError()
        let result = kids.withUnsafeBufferPointer { k in
            values.withUnsafeBufferPointer { v in
                dkWorld_SetFloats(raw, column.kernel, k.baseAddress, v.baseAddress, Int32(k.count), &error)
            }
        }
        try check(result, error, ids: ids)
    }

    func fill(_ column: KernelColumn, ids: [ItemID], value: Float) throws(DynamicsError) {
        let kids = ids.map(kernelID)
        var error = dkError()
        let result = kids.withUnsafeBufferPointer {
            dkWorld_FillFloats(raw, column.kernel, $0.baseAddress, value, Int32($0.count), &error)
        }
        try check(result, error, ids: ids)
    }

    func addVelocities(ids: [ItemID], dx: [Float]?, dy: [Float]?, dw: [Float]?) throws(DynamicsError) {
        let kids = ids.map(kernelID)
        var error = dkError()
        let result = kids.withUnsafeBufferPointer { k in
            dx.withOptionalBuffer { x in
                dy.withOptionalBuffer { y in
                    dw.withOptionalBuffer { w in
                        dkWorld_AddVelocities(raw, k.baseAddress, x, y, w, Int32(k.count), &error)
                    }
                }
            }
        }
        try check(result, error, ids: ids)
    }

    func applyImpulses(ids: [ItemID], px: [Float], py: [Float], offsetX: [Float], offsetY: [Float])
        throws(DynamicsError)
    {
        let kids = ids.map(kernelID)
        var error = dkError()
        let result = kids.withUnsafeBufferPointer { k in
            px.withUnsafeBufferPointer { x in
                py.withUnsafeBufferPointer { y in
                    offsetX.withUnsafeBufferPointer { ox in
                        offsetY.withUnsafeBufferPointer { oy in
                            dkWorld_ApplyImpulses(raw, k.baseAddress, x.baseAddress, y.baseAddress, ox.baseAddress,
                                                  oy.baseAddress, Int32(k.count), &error)
                        }
                    }
                }
            }
        }
        try check(result, error, ids: ids)
    }

    func setMassProperties(ids: [ItemID], description: ItemDescription) throws(DynamicsError) {
        var def = try description.kernelDef()
        let kids = ids.map(kernelID)
        var error = dkError()
        let result = kids.withUnsafeBufferPointer {
            dkWorld_SetMassProperties(raw, $0.baseAddress, Int32($0.count), &def, &error)
        }
        try check(result, error, ids: ids)
    }

    func check(_ result: dkResult, _ error: dkError, ids: [ItemID] = []) throws(DynamicsError) {
        guard result != dkResultOK else { return }
        let index = error.index >= 0 ? Int(error.index) : nil
        switch result {
        case dkResultStaleId:
            throw .staleID(index.map { ids[$0] } ?? ItemID(index: UInt32(error.value), generation: 0))
        case dkResultDuplicateId:
            throw .duplicateID(index.map { ids[$0] } ?? ItemID(index: UInt32(error.value), generation: 0))
        default: throw DynamicsError(error)
        }
    }
}

extension DynamicsError {
    init(_ error: dkError) {
        let field = error.field.map { String(cString: $0) } ?? "unknown"
        if error.code == dkResultOutOfMemory {
            self = .outOfMemory(field: field, value: error.value)
        } else if error.code == dkResultInvalidSnapshot {
            self = .invalidSnapshot(field: field, value: error.value)
        } else {
            self = .invalidValue(field: field, value: error.value, index: error.index >= 0 ? Int(error.index) : nil)
        }
    }
}

extension Optional where Wrapped == [Float] {
    fileprivate func withOptionalBuffer<R>(_ body: (UnsafePointer<Float>?) -> R) -> R {
        guard let self else { return body(nil) }
        return self.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
