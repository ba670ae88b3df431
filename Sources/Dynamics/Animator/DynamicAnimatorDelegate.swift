// SPDX-License-Identifier: Apache-2.0
/// Told when a ``DynamicAnimator`` pauses (every item rests) and resumes (UIKit's `UIDynamicAnimatorDelegate`).
/// Each transition is reported exactly once, on the thread that steps the animator.
public protocol DynamicAnimatorDelegate: AnyObject {
    /// The animator is about to move items again (a behaviour or item was added or removed, a parameter
    /// changed, or velocity was added).
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator)
    /// Every item rests; the animator stopped stepping and its ``DynamicAnimator/elapsedTime`` stopped.
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator)
}

extension DynamicAnimatorDelegate {
    /// Does nothing.
    public func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {}
    /// Does nothing.
    public func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {}
}
