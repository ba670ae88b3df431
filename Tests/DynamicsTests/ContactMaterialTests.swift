// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// Friction and elasticity at a contact, against Coulomb's law and the pair rules of the Units and semantics
/// article (Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md): a pair's friction is √(f₁·f₂) and its
/// elasticity max(e₁, e₂); against a boundary an item uses its own values.
/// (Issue 3's incline test: a box stays when friction ≥ tan(angle) and slides otherwise.)
@Suite struct ContactMaterialTests {
    static let angle: CGFloat = 20 * .pi / 180  // tan 20° = 0.364

    /// How far a 100 pt box of friction `friction` slides in 2 s down a 20° ramp: a boundary segment, or an
    /// anchored 1 200 × 100 pt item of friction `rampFriction`.
    static func slide(friction: CGFloat, rampFriction: CGFloat? = nil) -> CGFloat {
        var configuration = DynamicsConfiguration()
        configuration.workerCount = 1
        let a = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1000, height: 1000),
                                configuration: configuration)
        let (c, s) = (cos(angle), sin(angle))
        let box = DynamicBody(center: CGPoint(x: 500 + 50.5 * s, y: 700 - 50.5 * c), size: CGSize(width: 100, height: 100),
                              rotation: angle)
        let collision = CollisionBehavior(items: [box])
        let material = DynamicItemBehavior(items: [box])
        material.friction = friction
        if let rampFriction {
            // The ramp's top face passes through (500, 700), as the segment does.
            let ramp = DynamicBody(center: CGPoint(x: 500 - 50 * s, y: 700 + 50 * c), size: CGSize(width: 1200, height: 100),
                                   rotation: angle)
            collision.addItem(ramp)
            let rampMaterial = DynamicItemBehavior(items: [ramp])
            rampMaterial.isAnchored = true
            rampMaterial.friction = rampFriction
            a.addBehavior(rampMaterial)
        } else {
            collision.addBoundary(withIdentifier: "ramp", from: CGPoint(x: 500 - 600 * c, y: 700 - 600 * s),
                                  to: CGPoint(x: 500 + 600 * c, y: 700 + 600 * s))
        }
        a.addBehavior(GravityBehavior(items: [box]))
        a.addBehavior(collision)
        a.addBehavior(material)
        let start = box.center
        a.step(by: 2)
        return hypot(box.center.x - start.x, box.center.y - start.y)
    }

    /// The friction coefficient a slide of `distance` pt in 2 s implies under Coulomb's law: the box accelerates
    /// at g·(sin θ − μ·cos θ), so distance = ½·a·(2 s)² (semi-implicit Euler over 480 substeps adds 0.2 %).
    static func impliedFriction(_ distance: CGFloat) -> CGFloat { (sin(angle) - distance / 2000) / cos(angle) }

    @Test("a box on a 20° boundary ramp slides as Coulomb's law says below tan 20° = 0.364",
          arguments: [0.2, 0.3, 0.34, 0.36])
    func coulombSlides(mu: Double) {
        let distance = Self.slide(friction: mu)
        #expect(distance > 1, "μ = \(mu) held the box")
        #expect(abs(Self.impliedFriction(distance) - mu) < 0.005,
                "μ = \(mu): slid \(distance) pt, as μ = \(Self.impliedFriction(distance)) would")
    }

    @Test("a box on a 20° boundary ramp stays put at and above tan 20° = 0.364", arguments: [0.37, 0.38, 0.5])
    func coulombHolds(mu: Double) {
        let distance = Self.slide(friction: mu)
        #expect(distance < 1, "μ = \(mu): slid \(distance) pt")  // it lands from 0.5 pt above the ramp
    }

    @Test("two items' friction is √(f₁·f₂): a box of 0.5 on a ramp item of 0.18 slides as at 0.3")
    func frictionPairRule() {
        // max would hold it (0.5 > tan 20°); min (0.18) would slide 173 pt; the product (0.09) 258 pt.
        let distance = Self.slide(friction: 0.5, rampFriction: 0.18)
        #expect(abs(Self.impliedFriction(distance) - 0.3) < 0.005, "slid \(distance) pt")
    }

    /// The apex of a 100 pt ball of elasticity `ball` dropped from 500 pt onto an anchored item of elasticity
    /// `floor` (or the bounds' floor when nil), after its first bounce; pt above the surface.
    static func bounceHeight(ball: CGFloat, floor: CGFloat?) -> CGFloat {
        var configuration = DynamicsConfiguration()
        configuration.workerCount = 1
        let a = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1000, height: 1000),
                                configuration: configuration)
        let body = DynamicBody(center: CGPoint(x: 500, y: 400), size: CGSize(width: 100, height: 100),
                               collisionBoundsType: .ellipse)
        let collision = CollisionBehavior(items: [body])
        var surface: CGFloat = 1000
        if let floor {
            let slab = DynamicBody(center: CGPoint(x: 500, y: 950), size: CGSize(width: 1000, height: 100))
            collision.addItem(slab)
            let slabMaterial = DynamicItemBehavior(items: [slab])
            slabMaterial.isAnchored = true
            slabMaterial.elasticity = floor
            a.addBehavior(slabMaterial)
            surface = 900
        } else {
            collision.translatesReferenceBoundsIntoBoundary = true
        }
        let material = DynamicItemBehavior(items: [body])
        material.elasticity = ball
        a.addBehavior(GravityBehavior(items: [body]))
        a.addBehavior(collision)
        a.addBehavior(material)
        var lowest = CGFloat(0), apex = CGFloat.infinity, bounced = false
        for _ in 0..<150 {  // 2.5 s: the fall, the bounce and its apex
            a.step(by: 1.0 / 60)
            if !bounced { lowest = max(lowest, body.center.y); bounced = body.center.y < lowest - 1 }
            else { apex = min(apex, body.center.y) }
        }
        return surface - 50 - apex
    }

    @Test("a pair's elasticity is max(e₁, e₂); against a boundary the item's own",
          arguments: [(CGFloat(1), CGFloat?(0), true), (0, 1, true), (0, 0, false), (1, nil, true), (0, nil, false)])
    func elasticityPairRule(ball: CGFloat, floor: CGFloat?, bounces: Bool) {
        let height = Self.bounceHeight(ball: ball, floor: floor)
        let drop: CGFloat = floor == nil ? 550 : 450  // from the ball's bottom to the surface
        if bounces {
            #expect(height > 0.95 * drop, "ball \(ball), floor \(String(describing: floor)): \(height) of \(drop) pt")
        } else {
            #expect(height < 5, "ball \(ball), floor \(String(describing: floor)): bounced \(height) pt")
        }
    }
}
