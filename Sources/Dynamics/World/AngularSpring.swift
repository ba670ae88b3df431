// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Beyond UIKit: an angular spring on a pin (``AttachmentKind/pin(range:frictionTorque:motor:spring:)``,
/// ``AttachmentBehavior/angularFrequency``). It turns the attached item toward ``restAngle`` relative to the
/// other side, as a damped oscillator of ``frequency`` and damping ratio ``damping`` for the pin's effective
/// inertia (1 / (1/I_A + 1/I_B), or the item's own I on an anchor): the same exact oscillator as a rod's or a
/// weld's spring, at any substep count up to one radian per substep. It acts beside the pin's motor, friction
/// and range.
public struct AngularSpring: Hashable, Sendable {
    /// The spring's frequency, Hz (> 0).
    public var frequency: CGFloat
    /// Its damping ratio (1 = critical, 0 = none).
    public var damping: CGFloat
    /// The relative angle it turns toward, rad from the relative angle at creation.
    public var restAngle: CGFloat

    /// A spring of `frequency` (Hz) and damping ratio `damping` toward `restAngle` (rad from the creation angle).
    public init(frequency: CGFloat, damping: CGFloat = 0, restAngle: CGFloat = 0) {
        self.frequency = frequency
        self.damping = damping
        self.restAngle = restAngle
    }
}
