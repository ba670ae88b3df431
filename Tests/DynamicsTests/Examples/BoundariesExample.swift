// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// Line and arc boundaries with a collision delegate and an `action`, written as the UIKit version is (types
/// renamed, the ball a `DynamicBody` with an elliptical collision bounds type): a ball drops onto a ramp (a
/// line boundary), rolls off into a bowl (a half-circle arc boundary) and settles at its bottom. The
/// delegate records which boundary it touches; the behaviour's action records the lowest the ball went.
///
/// Differences from the UIKit version: `DynamicAnimator(referenceBounds:)`, `DynamicBody(frame:…)`, and the
/// caller steps the animator.
final class BoundariesExample: CollisionBehaviorDelegate {
    let animator: DynamicAnimator
    let ball: DynamicBody
    let collision: CollisionBehavior
    private(set) var touched: [String] = []
    private(set) var lowest = -CGFloat.infinity
    private(set) var actions = 0

    static let bowlCentre = CGPoint(x: 160, y: 300), bowlRadius: CGFloat = 120

    init(bounds: CGRect) {
        animator = DynamicAnimator(referenceBounds: bounds)
        ball = DynamicBody(center: CGPoint(x: 60, y: 40), size: CGSize(width: 30, height: 30), collisionBoundsType: .ellipse)
        collision = CollisionBehavior(items: [ball])
        collision.addBoundary(withIdentifier: "ramp" as NSCopying, from: CGPoint(x: 20, y: 120), to: CGPoint(x: 150, y: 170))
        // Clockwise from 0 to π on the y-down screen passes through the bottom: a bowl.
        collision.addBoundary(withIdentifier: "bowl" as NSCopying,
                              for: BezierPath(arcCenter: Self.bowlCentre, radius: Self.bowlRadius, startAngle: 0,
                                              endAngle: .pi, clockwise: true))
        collision.collisionDelegate = self
        collision.action = { [unowned self] in
            actions += 1
            lowest = max(lowest, ball.center.y)
        }
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [ball]))
        let material = DynamicItemBehavior(items: [ball])
        material.friction = 0.5
        material.angularResistance = 0.5
        material.resistance = 1  // a ball rolling in a bowl swings like a pendulum until something damps it
        animator.addBehavior(material)
    }

    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem,
                           withBoundaryIdentifier identifier: NSCopying?, at p: CGPoint) {
        touched.append((identifier as? NSString).map { $0 as String } ?? "bounds")
    }
}
