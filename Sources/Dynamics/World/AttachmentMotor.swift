// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Beyond UIKit: a motor on a pin (``AttachmentKind/pin(range:frictionTorque:motor:spring:)``,
/// ``AttachmentBehavior/motorSpeed``). It drives the attached item's angular velocity relative to the other
/// side (the item's minus the other item's, or minus nothing for an anchor) toward ``speed`` with a torque of
/// at most ``maximumTorque``, every substep, as Box2D's revolute motor does. Below that torque the load cannot
/// hold it back and the pin turns at ``speed``; a load that needs more turns it at the rate the difference
/// allows. It acts beside the pin's range, friction and spring (an unlimited motor overpowers a range: give a
/// motor that runs into one a ``maximumTorque``).
public struct AttachmentMotor: Hashable, Sendable {
    /// The relative angular velocity the motor drives toward, rad/s (positive: counterclockwise in a
    /// y-up world, as angles are).
    public var speed: CGFloat
    /// The largest torque the motor applies, N·pt (as ``AttachmentBehavior/frictionTorque``: an angular
    /// acceleration of 100 · τ / I rad/s² on an inertia I); `.infinity`, the default, does not limit it.
    public var maximumTorque: CGFloat

    /// A motor driving toward `speed` (rad/s) with at most `maximumTorque` (N·pt; `.infinity`: unlimited).
    public init(speed: CGFloat, maximumTorque: CGFloat = .infinity) {
        self.speed = speed
        self.maximumTorque = maximumTorque
    }
}
