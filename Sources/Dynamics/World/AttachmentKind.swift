// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What an attachment of a ``DynamicWorld`` holds (<doc:UnitsAndSemantics>). Lengths in points, angles in radians.
///
/// Each kind links an item to another item or to a fixed point of the world, through an anchor on each
/// side. ``AttachmentBehavior`` makes the same kinds for the UIKit-shaped API.
public enum AttachmentKind: Hashable, Sendable {
    /// A rod that keeps the anchors `length` apart (nil: their distance at creation). With `frequency`
    /// > 0 (Hz) it is a spring with damping ratio `damping` (1 = critical); 0 is rigid. The items turn
    /// freely about the anchors. A spring to an anchor or between two free items moves with the damped
    /// oscillator's frequency and decay rate (ω = 2π · `frequency` for the anchors' effective mass) at any
    /// substep count, up to one radian per substep (38 Hz at 4 substeps of 1/60 s).
    case rod(length: CGFloat? = nil, frequency: CGFloat = 0, damping: CGFloat = 0)
    /// A rope: the anchors may come closer but never farther apart than `length` (nil: their distance
    /// at creation).
    case rope(length: CGFloat? = nil)
    /// A weld: the anchors coincide and the relative angle stays as at creation. With `frequency` > 0 (Hz)
    /// both are springs with damping ratio `damping`.
    case weld(frequency: CGFloat = 0, damping: CGFloat = 0)
    /// A pin: the anchors coincide and the items turn freely about them, within `range` (rad from the
    /// relative angle at creation; ``FloatRange/infinite``: no limit), resisted by `frictionTorque`
    /// (N·pt: angular acceleration 100 · τ / I), driven by `motor` and turned toward a rest angle by
    /// `spring` (both Beyond UIKit; nil: none).
    case pin(range: FloatRange = .infinite, frictionTorque: CGFloat = 0, motor: AttachmentMotor? = nil,
             spring: AngularSpring? = nil)
    /// A slider: the item moves relative to the other side only along `axis` (reference coordinates at
    /// creation, turning with the other item; its length is ignored), without relative rotation, within
    /// `range` (pt from the offset at creation; ``FloatRange/infinite``: no limit), driven along it by `motor`
    /// (Beyond UIKit; nil: none).
    case slider(axis: CGVector, range: FloatRange = .infinite, motor: SliderMotor? = nil)
}
