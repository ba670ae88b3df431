// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The base of every behaviour (UIKit's `UIDynamicBehavior`); subclass it to compose behaviours.
///
/// A behaviour belongs to at most one place: an animator's top level or one parent. Adding it a second
/// time, anywhere, is a programmer error and traps.
open class DynamicBehavior {
    /// The child behaviours, in the order added.
    public private(set) var childBehaviors: [DynamicBehavior] = []
    /// Runs once per step, after the solver, on the thread that called ``DynamicAnimator/step(by:)``.
    public var action: (() -> Void)?
    weak var parent: DynamicBehavior?
    weak var owner: DynamicAnimator?

    /// Creates a behaviour with no children.
    public init() {}

    /// The animator this behaviour (or its top-level ancestor) is added to.
    public var dynamicAnimator: DynamicAnimator? { parent?.dynamicAnimator ?? owner }

    /// Adds a child. Traps when `behavior` already has a parent or an animator.
    public func addChildBehavior(_ behavior: DynamicBehavior) {
        require(behavior.parent == nil && behavior.owner == nil,
                     "\(type(of: behavior)) is already in a behaviour tree or an animator; remove it first")
        require(!behavior.isAncestor(of: self), "a behaviour cannot be its own descendant")
        let animator = dynamicAnimator
        if let animator {
            animator.precheck(adding: behavior)
            animator.joining(behavior)
            behavior.forEachInTree { $0.willMove(to: animator) }
        }
        childBehaviors.append(behavior)
        behavior.parent = self
        animator?.treeDidChange()
    }

    /// Removes a child (nothing happens when it is not a child of this behaviour).
    public func removeChildBehavior(_ behavior: DynamicBehavior) {
        guard let index = childBehaviors.firstIndex(where: { $0 === behavior }) else { return }
        let animator = dynamicAnimator
        if animator != nil { behavior.forEachInTree { $0.willMove(to: nil) } }
        childBehaviors.remove(at: index)
        behavior.parent = nil
        animator?.treeDidChange()
    }

    /// Called before the behaviour joins an animator (with it) or leaves one (with nil).
    open func willMove(to animator: DynamicAnimator?) {}

    /// Tells the animator that items joined or left this behaviour.
    func itemsDidChange() { dynamicAnimator?.treeDidChange() }

    /// Tells the animator that a parameter changed: it resumes and re-reads its behaviours before the next step.
    func didChange() { dynamicAnimator?.behaviorDidChange() }

    /// Visits this behaviour and its descendants, depth first, parents before children.
    func forEachInTree(_ body: (DynamicBehavior) -> Void) {
        body(self)
        for child in childBehaviors { child.forEachInTree(body) }
    }

    private func isAncestor(of other: DynamicBehavior) -> Bool {
        var node: DynamicBehavior? = other
        while let n = node {
            if n === self { return true }
            node = n.parent
        }
        return false
    }

    /// The items this behaviour acts on directly (subclasses in this module report theirs).
    var directItems: [any DynamicItem] { [] }
}
