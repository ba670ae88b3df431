// SPDX-License-Identifier: Apache-2.0
/// The built-in field laws (<doc:UnitsAndSemantics>). Accelerations are in pt/s²; `atten` is
/// max(r, minimumRadius)^(−falloff) with r the distance from the field's position; m is the item's mass
/// (100 × 100 pt at density 1 = 1), q its charge, v its velocity (pt/s).
public enum FieldKind: Hashable, Sendable, CaseIterable {
    /// a = 1000 · strength · direction · atten, the same for every mass.
    case linearGravity
    /// a = 1000 · strength · atten toward the position.
    case radialGravity
    /// a = −100 · strength · (c − position) · atten / m: period 2π/10 s for m = 1 at strength 1.
    case spring
    /// a = −strength · v · atten / m: velocity decays at strength/m per second.
    case drag
    /// Sets v = strength · direction · atten (pt/s) after the substep's other accelerations.
    case velocity
    /// a = 1000 · strength · N(c, t) · atten, N a seeded smooth vector noise with components in −1…1.
    /// While `animationSpeed` > 0 the field changes by itself, so its items never come to rest.
    case noise
    /// a = strength · |v| · N(c, t) · atten.
    case turbulence
    /// a = 100 · q · strength · atten / m away from the position (positive charges are repelled by
    /// positive strength).
    case electric
    /// a = q · strength · (v_y, −v_x) · atten / m: circles at ω = q · strength / m rad/s. Each substep
    /// turns the velocity by an exact rotation (Cayley form), so the field keeps the speed, as a
    /// magnetic force does no work.
    case magnetic
    /// a = 1000 · strength · atten along the tangent, visually counter-clockwise on the y-down screen for
    /// positive strength.
    case vortex
}
