// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Every property of a built-in field (<doc:UnitsAndSemantics>), as a value: a ``FieldBehavior`` holds one, and
/// ``DynamicWorld/addField(_:for:)`` takes one.
///
/// The field acts on its items whose centre c satisfies `region.contains(c − position)`.
public struct FieldDescription: Hashable, Sendable {
    /// The law.
    public var kind: FieldKind
    /// The field's origin, pt (reference coordinates).
    public var position: CGPoint = .zero
    /// Where the field acts, relative to `position` (default infinite).
    public var region: Region = .infinite
    /// Scale of the law (default 1; any finite value, negative reverses it).
    public var strength: CGFloat = 1
    /// Exponent of the distance attenuation, ≥ 0 (default 0: none).
    public var falloff: CGFloat = 0
    /// Distances below this (pt, > 0) count as this in the attenuation (default 0.001).
    public var minimumRadius: CGFloat = 0.001
    /// Linear gravity and velocity fields: the direction (its length scales the field; default (0, 1)).
    public var direction: CGVector = CGVector(dx: 0, dy: 1)
    /// Noise and turbulence: 0…1, 1 smoothest. The noise's wavelength is 10 pt · 100^smoothness
    /// (10 pt at 0, 100 pt at 0.5, 1 000 pt at 1). Default 0.5.
    public var smoothness: CGFloat = 0.5
    /// Noise and turbulence: how fast the noise changes, Hz (0 frozen; default 1).
    public var animationSpeed: CGFloat = 1

    /// A description of `kind` with the default properties.
    public init(kind: FieldKind) { self.kind = kind }
}
