// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Beyond UIKit: a motor on a slider (``AttachmentKind/slider(axis:range:motor:)``,
/// ``AttachmentBehavior/motorSpeed`` with ``AttachmentBehavior/maximumMotorForce``). It drives the attached
/// item's speed along the slider's axis, relative to the other side, toward ``speed`` with a force of at most
/// ``maximumForce``, every substep, as Box2D's prismatic motor does: a load that needs less is held at the
/// speed, one that needs more moves the item at the rate the difference allows. It acts beside the slider's
/// range (an unlimited motor overpowers a range: give a motor that runs into one a ``maximumForce``).
public struct SliderMotor: Hashable, Sendable {
    /// The speed along the axis the motor drives toward, pt/s (positive: along the axis's direction).
    public var speed: CGFloat
    /// The largest force the motor applies, N (an acceleration of 100 · F / m pt/s² on a mass m);
    /// `.infinity`, the default, does not limit it.
    public var maximumForce: CGFloat

    /// A motor driving toward `speed` (pt/s) with at most `maximumForce` (N; `.infinity`: unlimited).
    public init(speed: CGFloat, maximumForce: CGFloat = .infinity) {
        self.speed = speed
        self.maximumForce = maximumForce
    }
}
