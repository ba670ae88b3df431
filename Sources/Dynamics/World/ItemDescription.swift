// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What the items of one bulk ``DynamicWorld/createItems(_:at:angles:)`` call share: shape and material.
///
/// Mass follows <doc:UnitsAndSemantics>: m = density · area / 10 000, so a 100 × 100 pt square of density 1
/// has mass 1.
public struct ItemDescription: Hashable, Sendable {
    /// Collision shape of an item, sized in points.
    public enum Shape: Hashable, Sendable {
        /// A width × height rectangle, pt.
        case rectangle(width: CGFloat, height: CGFloat)
        /// The ellipse inscribed in width × height, pt (a circle when equal).
        case ellipse(width: CGFloat, height: CGFloat)
        /// Several shapes joined rigidly: total mass and inertia (mass·pt²) about the centre of mass,
        /// and the bounding size in pt.
        case compound(mass: CGFloat, inertia: CGFloat, width: CGFloat, height: CGFloat)
    }
    /// The shape (default: a 100 × 100 pt rectangle).
    public var shape: Shape = .rectangle(width: 100, height: 100)
    /// Density (10⁻⁶…10⁶, default 1): mass per 10 000 pt². Sizes are 10⁻³…10⁷ pt, and the mass and inertia they
    /// give must be normal Float numbers; anything else throws, naming the field. (The world also bounds
    /// positions and snap points to ±10¹⁵ pt, speeds to 10⁷ pt/s and turn rates to 10⁶ rad/s, results of
    /// ``DynamicWorld/addVelocity(_:angular:for:)`` and ``DynamicWorld/applyImpulse(_:at:for:)`` included.)
    public var density: CGFloat = 1
    /// Anchored items have infinite mass and inertia and never move.
    public var isAnchored = false
    /// Kinematic items (beyond UIKit, as Box2D's kinematic bodies) move at the velocity you set
    /// (``DynamicWorld/setVelocities(_:angular:for:)``, ``DynamicWorld/drive(_:to:angles:)``) and nothing else
    /// changes it: not gravity, forces, pushes, fields, resistance (always 0 on them), snaps, attachments or
    /// contacts. They push dynamic items and are not pushed, collide with dynamic items only (not with anchored
    /// or kinematic items or boundaries), take part in contact events, and rest only when their velocity is
    /// zero (while it is not, neither do the items they touch). Their mass and inertia still follow the shape
    /// and density, for you to read. Not together with ``isAnchored`` (that throws, naming `isKinematic`).
    /// Default false.
    public var isKinematic = false
    /// When false the item keeps its angle (infinite inertia).
    public var allowsRotation = true
    /// Linear damping c ≥ 0 in 1/s: v ← v / (1 + h·c) per substep of h seconds.
    public var resistance: CGFloat = 0
    /// Angular damping ≥ 0 in 1/s, same law for ω.
    public var angularResistance: CGFloat = 0
    /// Restitution 0…1 (used by collisions).
    public var elasticity: CGFloat = 0
    /// Coulomb friction coefficient ≥ 0 (used by collisions).
    public var friction: CGFloat = 0
    /// Charge (used by electric and magnetic fields).
    public var charge: CGFloat = 0

    /// A 100 × 100 pt rectangle of density 1.
    public init() {}

    /// An item of the given shape with default material.
    public init(shape: Shape, density: CGFloat = 1) {
        self.shape = shape
        self.density = density
    }
}
