// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicWorld {
    /// The world's whole state as bytes, which ``init(snapshot:workerCount:)`` reads back into a world that
    /// steps on exactly as this one would: the same state hash after any number of further steps, at any
    /// worker count.
    ///
    /// A snapshot holds the items and their columns, shapes, attachments, fields, the contacts with their
    /// warm-start impulses, rest timers, islands and resting sets, the configuration (less the worker count)
    /// and the clock (``elapsedTime``, ``stepCount`` and the remainder carried to the next ``step(by:)``). It
    /// carries a format version and a checksum. It does not change the world (so it may be taken inside
    /// ``withColumn(_:_:)``). See <doc:Checkpoints>.
    public func snapshot() -> Data { snapshot(userData: nil) }

    /// A snapshot with the caller's bytes stored beside the world (a scene run's own state), which
    /// ``readSnapshot(_:workerCount:)`` gives back.
    package func snapshot(userData: Data?) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys // the same world, the same bytes
        let state = (try? encoder.encode(SnapshotState(self, userData: userData))) ?? Data()
        return kernel.snapshot(host: state)
    }

    /// A world read from a snapshot, and the bytes ``snapshot(userData:)`` stored beside it.
    package static func readSnapshot(_ snapshot: Data, workerCount: Int?) throws(DynamicsError)
        -> (world: DynamicWorld, userData: Data?)
    {
        var probe = DynamicsConfiguration()
        if let workerCount { probe.workerCount = workerCount }
        let (kernel, host) = try KernelWorld.read(snapshot: snapshot, configuration: probe)
        let state: SnapshotState
        do { state = try JSONDecoder().decode(SnapshotState.self, from: host) } catch {
            throw .invalidSnapshot(field: "configuration", value: Double(host.count))
        }
        let configuration = try state.configuration(workerCount: probe.workerCount)
        try kernel.configure(configuration, seed: false)
        let world = DynamicWorld(kernel: kernel, configuration: configuration, elapsedTime: state.elapsedTime,
                                 stepCount: state.stepCount, pendingTime: state.pendingTime)
        return (world, state.userData)
    }

    /// `id` as this world's: the same slot and generation, tagged with this world (for ids made in another
    /// world by the same calls, as a scene run read from a checkpoint makes them).
    package func owned(_ id: ItemID) -> ItemID { kernel.itemID(kernel.kernelID(ItemID(index: id.index, generation: id.generation))) }

    /// Reads a world from ``snapshot()``'s bytes, stepping with `workerCount` workers (the default: the active
    /// processors, at most 64; results do not depend on it).
    ///
    /// The world's items keep their slots and generations, so an id made from the parts of an id of the
    /// written world (``ItemID/init(index:generation:)``) names the same item; the ids this world hands out
    /// carry this world. Throws ``DynamicsError/invalidSnapshot(field:value:)`` for bytes that are truncated,
    /// damaged, of another format version or no snapshot at all, naming what is wrong, and
    /// ``DynamicsError/invalidValue(field:value:index:)`` for a worker count outside 1…64.
    public convenience init(snapshot: Data, workerCount: Int? = nil) throws(DynamicsError) {
        let read = try Self.readSnapshot(snapshot, workerCount: workerCount).world
        self.init(kernel: read.kernel, configuration: read.configuration, elapsedTime: read.elapsedTime,
                  stepCount: read.stepCount, pendingTime: read.pendingStepTime)
    }
}
