// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Synchronization
import Testing

/// A step that runs out of memory changes nothing (the Units and semantics article, §Bad input): for every
/// built-in scene, each allocation a step makes is failed in turn, and each time the step must throw
/// `outOfMemory`, leave the world as it was (state hash, dense order, counts, last step's contact events),
/// and the next step, with memory, must give the same state as a world that never failed.
@Suite struct FailedStepTests {
    /// Counts a world's allocations and fails the chosen one.
    final class AllocationBudget: Sendable {
        /// Allocations since `arm`.
        let made = Atomic<Int>(0)
        /// The allocation to fail, counted from 1 since `arm` (0: none).
        let failAt = Atomic<Int>(0)

        func arm(failing n: Int) {
            made.store(0, ordering: .sequentiallyConsistent)
            failAt.store(n, ordering: .sequentiallyConsistent)
        }

        /// The hook a configuration takes; valid while this budget lives.
        var hook: AllocationHook {
            AllocationHook(
                allocate: { context, bytes in
                    let budget = Unmanaged<AllocationBudget>.fromOpaque(context!).takeUnretainedValue()
                    let n = budget.made.add(1, ordering: .sequentiallyConsistent).newValue
                    if n == budget.failAt.load(ordering: .sequentiallyConsistent) { return nil }
                    return aligned_alloc(64, bytes)
                },
                release: { _, memory in free(memory) },
                context: Unmanaged.passUnretained(self).toOpaque())
        }
    }

    /// What a failed step must leave as it was.
    struct Observed: Equatable {
        var hash: UInt64
        var ids: [ItemID]
        var awake: Int
        var islands: Int
        var contacts: Int
        var events: [ContactEvent]

        init(_ world: DynamicWorld) {
            hash = world.stateHash()
            ids = world.itemIDs()
            awake = world.awakeItemCount
            islands = world.islandCount
            contacts = world.contactCount
            events = world.contactEvents
        }
    }

    /// A world's contact events as text, which names items by index and generation alone (an id's world tag
    /// differs between worlds).
    static func events(of world: DynamicWorld) -> [String] { world.contactEvents.map { "\($0)" } }

    /// Where in a run the failing step comes: the first step (everything the world keeps between steps
    /// grows), a step of the settled run (the step arena and lists have room: such a step may allocate
    /// nothing), the first step after every item was woken and pushed up (contacts end, islands break), and
    /// the first step after half the items of a world put to rest were woken (their resting islands give
    /// their contacts back to the step's merge).
    enum Moment: String, CaseIterable {
        case first, settled, kicked, woken
    }

    /// The world of a built-in scene (by default at most 120 items, at 1 worker) brought to `moment`.
    static func world(_ name: String, at moment: Moment, items: Int? = nil, workers: Int = 1,
                      budget: AllocationBudget?) throws -> DynamicWorld
    {
        var configuration = DynamicsConfiguration()
        // At 1 worker the allocations come in one order, so "the n-th" is always the same one.
        configuration.workerCount = workers
        configuration.allocationHook = budget?.hook
        let scene = try #require(Scene.named(name))
        let world = try scene.makeWorld(items: items ?? min(scene.defaultItems, 120), configuration: configuration)
        if moment != .first { try world.step(count: 40) }
        if moment == .kicked { try world.addVelocity(CGVector(dx: 40, dy: -300), angular: 2, for: world.itemIDs()) }
        if moment == .woken {
            let ids = world.itemIDs()
            try world.putToRest(ids)
            try world.step(count: 2) // the resting islands take their contacts
            world.wake(Array(ids.prefix(ids.count / 2)))
        }
        return world
    }

    /// Fails each allocation of the step after `moment` in turn; returns how many failed.
    static func failEach(_ name: String, at moment: Moment, items: Int? = nil, workers: Int = 1) throws -> Int {
        let reference = try world(name, at: moment, items: items, workers: workers, budget: nil)
        try reference.step(count: 1)
        let expected = reference.stateHash()
        let expectedEvents = events(of: reference)
        var failures = 0
        for n in 1... {
            let budget = AllocationBudget()
            // The world is made and dropped inside, so the budget outlives it.
            let done = try withExtendedLifetime(budget) { () throws -> Bool in
                let world = try Self.world(name, at: moment, items: items, workers: workers, budget: budget)
                let before = Observed(world)
                budget.arm(failing: n)
                do {
                    try world.step(count: 1)
                    // The step made fewer than n allocations: every one of them has been failed.
                    #expect(world.stateHash() == expected, "\(name), \(moment.rawValue): the step that did not fail")
                    return true
                } catch {
                    failures += 1
                    #expect((error as? DynamicsError)?.isOutOfMemory == true, "\(name), \(moment.rawValue), allocation \(n): \(error)")
                    #expect(Observed(world) == before, "\(name), \(moment.rawValue): failing allocation \(n) changed the world")
                }
                budget.arm(failing: 0)
                try world.step(count: 1)
                #expect(world.stateHash() == expected, "\(name), \(moment.rawValue): the step after failing allocation \(n)")
                #expect(events(of: world) == expectedEvents, "\(name), \(moment.rawValue): events after failing allocation \(n)")
                return false
            }
            if done { break }
        }
        return failures
    }

    @Test("a step that runs out of memory at any of its allocations changes nothing",
          arguments: Scene.builtIn.map(\.name))
    func failEachAllocation(name: String) throws {
        var failures = 0
        for moment in Moment.allCases { failures += try Self.failEach(name, at: moment) }
        #expect(failures > 0, "\(name): no step allocated, so nothing was failed")
    }

    /// With 2 workers a step of 2 000 boxes runs its stages in parallel, and some allocations happen on the
    /// workers (the grid's blocks, the merge's ranges), in an order that may change from run to run: each
    /// failure must still leave the world as it was.
    @Test("at 2 workers, a parallel step that runs out of memory changes nothing")
    func failInParallel() throws {
        var failures = 0
        for moment in [Moment.first, .kicked] { failures += try Self.failEach("pile", at: moment, items: 2000, workers: 2) }
        #expect(failures > 0)
    }
}

extension DynamicsError {
    var isOutOfMemory: Bool {
        if case .outOfMemory = self { true } else { false }
    }
}
