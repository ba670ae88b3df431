// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs behaviours over items (UIKit's `UIDynamicAnimator`), headless and explicitly stepped.
///
/// ```swift
/// let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
/// let square = DynamicBody(center: CGPoint(x: 160, y: 100), size: CGSize(width: 100, height: 100))
/// animator.addBehavior(GravityBehavior(items: [square]))
/// animator.step(by: 1.0)          // 60 steps of 1/60 s: square.center.y ≈ 600 pt
/// ```
///
/// Time is simulated: ``step(by:)`` advances in fixed steps of 1/``DynamicsConfiguration/stepsPerSecond`` s
/// with ``DynamicsConfiguration/substeps`` solver substeps each. After each step the animator writes every
/// item's `center` and `transform`, then runs each behaviour's `action`. When every item rests the animator
/// pauses and tells its delegate; adding or changing behaviours resumes it. Use an animator from one thread.
public final class DynamicAnimator {
    /// The configuration type (shared with ``DynamicWorld``).
    public typealias Configuration = DynamicsConfiguration

    /// The batch world underneath: one kernel item per dynamic item (or item group).
    public let world: DynamicWorld
    /// The reference bounds (pt), or nil for an animator made without them.
    public let referenceBounds: CGRect?
    /// The top-level behaviours, in the order added.
    public private(set) var behaviors: [DynamicBehavior] = []
    /// Told about pause and resume.
    public weak var delegate: (any DynamicAnimatorDelegate)?
    /// Whether the animator is moving items (false before the first behaviour and after every item rests).
    public private(set) var isRunning = false
    /// Simulated seconds stepped while running.
    public private(set) var elapsedTime: TimeInterval = 0

    var entries: [ObjectIdentifier: AnimatorEntry] = [:]
    var entryOrder: [ObjectIdentifier] = []
    var memberOf: [ObjectIdentifier: ObjectIdentifier] = [:]  // group member → group entry
    var keyOfID: [ItemID: ObjectIdentifier] = [:]
    var boundaryRecords: [BoundaryRecord?] = []  // index = kernel shape tag
    var touching: [ContactKey: Int] = [:]
    var attachmentIDs: [ObjectIdentifier: AttachmentID] = [:]  // AttachmentBehavior → kernel attachment
    var fieldRecords: [ObjectIdentifier: FieldRecord] = [:]  // built-in FieldBehavior → kernel field
    var customFields: [FieldBehavior] = []  // fields with an evaluation block, in tree order
    var customForceIDs: [ItemID] = []  // items given a custom-field force by the last step
    var needsSync = false
    var inStep = false
    /// True for the whole of a step(by:) or runUntilPaused call, actions and callbacks included.
    var stepping = false
    private var pendingTime: TimeInterval = 0

    /// An animator whose reference bounds are `referenceBounds` (pt). Traps on an invalid configuration.
    public convenience init(referenceBounds: CGRect, configuration: Configuration = .init()) {
        require([referenceBounds.minX, referenceBounds.minY, referenceBounds.width, referenceBounds.height]
            .allSatisfy(\.isFinite), "referenceBounds must be finite, got \(referenceBounds)")
        self.init(bounds: referenceBounds, configuration: configuration)
    }

    /// An animator with no reference bounds. Traps on an invalid configuration.
    public convenience init(configuration: Configuration = .init()) {
        self.init(bounds: nil, configuration: configuration)
    }

    private init(bounds: CGRect?, configuration: Configuration) {
        do {
            world = try DynamicWorld(configuration: configuration)
        } catch {
            fatalError("DynamicAnimator configuration: \(error)")
        }
        referenceBounds = bounds
    }

    deinit {
        ItemOwnership.release(Array(entries.keys) + Array(memberOf.keys), for: ObjectIdentifier(self))
    }

    // MARK: behaviours

    /// Adds a top-level behaviour. Traps when it is already in this or another animator or behaviour.
    public func addBehavior(_ behavior: DynamicBehavior) {
        require(!inStep, "DynamicAnimator.addBehavior called during a step")
        require(behavior.parent == nil && behavior.owner == nil,
                     "\(type(of: behavior)) is already in a behaviour tree or an animator; remove it first")
        precheck(adding: behavior)
        joining(behavior)
        behavior.forEachInTree { $0.willMove(to: self) }
        behaviors.append(behavior)
        behavior.owner = self
        treeDidChange()
    }

    /// Removes a top-level behaviour (nothing happens when it is not one).
    public func removeBehavior(_ behavior: DynamicBehavior) {
        require(!inStep, "DynamicAnimator.removeBehavior called during a step")
        guard let index = behaviors.firstIndex(where: { $0 === behavior }) else { return }
        behavior.forEachInTree { $0.willMove(to: nil) }
        behaviors.remove(at: index)
        behavior.owner = nil
        treeDidChange()
    }

    /// Removes every behaviour.
    public func removeAllBehaviors() {
        for behavior in behaviors { removeBehavior(behavior) }
    }

    /// Traps when an item of `behavior`'s tree already belongs to another animator.
    /// A behaviour tree joins this animator: attachments without a length set take the distance between
    /// their attachment points now.
    func joining(_ behavior: DynamicBehavior) {
        behavior.forEachInTree { ($0 as? AttachmentBehavior)?.fixLengthOnFirstAdd() }
    }

    func precheck(adding behavior: DynamicBehavior) {
        let me = ObjectIdentifier(self)
        behavior.forEachInTree { b in
            for item in b.directItems {
                for object in [item] + ((item as? DynamicItemGroup)?.items ?? []) {
                    if let holder = ItemOwnership.owner(of: ObjectIdentifier(object)), holder != me {
                        fatalError(
                            "\(type(of: object)) is already in another DynamicAnimator; an item belongs to one animator")
                    }
                }
            }
        }
    }

    /// Behaviours or items were added or removed: register and drop items now (so an item removed here
    /// can join another animator at once), re-read parameters before the next step, and resume.
    func treeDidChange() {
        behaviorDidChange()
        if !inStep { syncItems() }
    }

    /// A behaviour changed: re-read the tree before the next step, and resume.
    func behaviorDidChange() {
        needsSync = true
        resume()
    }

    func resume() {
        guard !isRunning else { return }
        isRunning = true
        delegate?.dynamicAnimatorWillResume(self)
    }

    // MARK: stepping

    /// Advances simulated time by `duration` seconds in fixed steps; a remainder shorter than a step is
    /// carried to the next call. While paused, time does not advance. Traps on a negative or non-finite duration.
    public func step(by duration: TimeInterval) {
        require(duration.isFinite && duration >= 0 && duration <= DynamicWorld.maximumStepDuration,
                "step(by:) needs a duration of 0…\(DynamicWorld.maximumStepDuration) s, got \(duration)")
        require(!stepping, "DynamicAnimator.step called from inside a step, an action block or a delegate callback")
        world.requireNoColumnView("step(by:)", of: "DynamicAnimator")
        stepping = true
        defer { stepping = false }
        pendingTime += duration
        let rate = world.configuration.stepsPerSecond
        let steps = Int((pendingTime * rate + 1e-9).rounded(.down))
        pendingTime = max(0, pendingTime - Double(steps) / rate)
        for _ in 0..<steps { stepOnce() }
    }

    /// Same as ``step(by:)``, named for scripts.
    public func run(for duration: TimeInterval) { step(by: duration) }

    /// Steps until the animator pauses or `timeout` simulated seconds have passed.
    /// Returns true when it paused in time.
    public func runUntilPaused(timeout: TimeInterval) -> Bool {
        require(timeout.isFinite && timeout >= 0 && timeout <= DynamicWorld.maximumStepDuration,
                "runUntilPaused needs a timeout of 0…\(DynamicWorld.maximumStepDuration) s, got \(timeout)")
        require(!stepping, "DynamicAnimator.runUntilPaused called from inside a step, an action block or a delegate callback")
        world.requireNoColumnView("runUntilPaused", of: "DynamicAnimator")
        stepping = true
        defer { stepping = false }
        let steps = Int((timeout * world.configuration.stepsPerSecond + 1e-9).rounded(.down))
        for _ in 0..<steps {
            guard isRunning || needsSync else { break }  // paused: return at once
            stepOnce()
        }
        if needsSync { stepOnce() }
        return !isRunning
    }

    private func stepOnce() {
        if needsSync { sync() }
        guard isRunning else { return }
        inStep = true
        do {
            try applyCustomFields()
            try world.stepOnce()
        } catch {
            fatalError("kernel step failed: \(error)")
        }
        writeBack()
        inStep = false
        deliverContactEvents()
        elapsedTime += world.configuration.stepDuration
        var order: [DynamicBehavior] = []
        for behavior in behaviors { behavior.forEachInTree { order.append($0) } }
        // A behaviour removed by an earlier action or callback of this step does not run its action.
        for behavior in order where behavior.dynamicAnimator === self { behavior.action?() }
        if world.awakeItemCount == 0 && !needsSync {
            isRunning = false
            delegate?.dynamicAnimatorDidPause(self)
        }
    }
}
