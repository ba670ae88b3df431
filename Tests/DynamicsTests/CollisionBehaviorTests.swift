// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// Collision behaviours, boundaries and events changed while the animator runs. The reference bounds are
/// 1 000 × 1 000 pt with the floor at y = 1 000; gravity is 1 000 pt/s² down; boxes are 100 pt.
@Suite struct CollisionBehaviorTests {
    func animator() -> DynamicAnimator {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        return DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1000, height: 1000), configuration: c)
    }

    func box(_ x: CGFloat, _ y: CGFloat) -> DynamicBody {
        DynamicBody(center: CGPoint(x: x, y: y), size: CGSize(width: 100, height: 100))
    }

    @Test("an item in two behaviours collides with the items of each; items that share none pass through")
    func itemInTwoBehaviours() {
        let a = animator()
        let middle = box(500, 500), left = box(250, 500), right = box(750, 500), far = box(500, 200)
        let one = CollisionBehavior(items: [middle, left]), two = CollisionBehavior(items: [middle, right])
        let anchor = DynamicItemBehavior(items: [middle])
        anchor.isAnchored = true
        let movers = DynamicItemBehavior(items: [left, right, far])
        a.addBehavior(one)
        a.addBehavior(two)
        a.addBehavior(anchor)
        a.addBehavior(movers)
        let ghost = CollisionBehavior(items: [far])  // its own behaviour: passes through the middle box
        a.addBehavior(ghost)
        movers.addLinearVelocity(CGPoint(x: 300, y: 0), for: left)
        movers.addLinearVelocity(CGPoint(x: -300, y: 0), for: right)
        movers.addLinearVelocity(CGPoint(x: 0, y: 600), for: far)
        a.step(by: 1)
        // Elasticity 0: each stops against the middle box's face, 100 pt from its centre.
        #expect(abs(left.center.x - 400) < 1, "left at \(left.center.x)")
        #expect(abs(right.center.x - 600) < 1, "right at \(right.center.x)")
        #expect(far.center.y > 750, "the box of a third behaviour stopped at \(far.center.y)")
    }

    @Test("a collision behaviour added while running holds the item from the next step; removed, it lets it fall")
    func behaviourAddedAndRemoved() {
        let a = animator()
        let item = box(500, 300)
        a.addBehavior(GravityBehavior(items: [item]))
        let collision = CollisionBehavior(items: [item])
        collision.addBoundary(withIdentifier: "shelf", from: CGPoint(x: 0, y: 700), to: CGPoint(x: 1000, y: 700))
        a.step(by: 0.2)
        #expect(item.center.y > 300 && item.center.y < 600)
        a.addBehavior(collision)
        a.step(by: 2)
        #expect(abs(item.center.y - 650) < 1, "rests on the shelf: \(item.center.y)")
        a.removeBehavior(collision)
        a.step(by: 1)
        #expect(item.center.y > 1000, "fell through the shelf's place: \(item.center.y)")
    }

    @Test("an item added to a behaviour while running collides from the next step")
    func itemAddedWhileRunning() {
        let a = animator()
        let resting = box(500, 950), falling = box(500, 500)
        let collision = CollisionBehavior(items: [resting])
        collision.translatesReferenceBoundsIntoBoundary = true
        a.addBehavior(GravityBehavior(items: [resting, falling]))
        a.addBehavior(collision)
        a.step(by: 0.1)
        collision.addItem(falling)
        a.step(by: 2)
        #expect(abs(falling.center.y - 850) < 1, "rests on the other box: \(falling.center.y)")
    }

    @Test("the reference bounds with insets are the boundary: a 100 pt bottom inset lifts the floor to 900 pt")
    func insets() {
        let a = animator()
        let item = box(500, 500)
        let collision = CollisionBehavior(items: [item])
        collision.setTranslatesReferenceBoundsIntoBoundary(with: EdgeInsets(top: 0, left: 0, bottom: 100, right: 0))
        a.addBehavior(GravityBehavior(items: [item]))
        a.addBehavior(collision)
        a.step(by: 2)
        #expect(abs(item.center.y - 850) < 1, "rests at \(item.center.y)")
    }

    @Test("a boundary added while running stops a falling item; removed from the behaviour, it lets it go")
    func boundaryAddedAndRemoved() {
        let a = animator()
        let item = box(500, 300)
        let collision = CollisionBehavior(items: [item])
        a.addBehavior(GravityBehavior(items: [item]))
        a.addBehavior(collision)
        a.step(by: 0.2)
        collision.addBoundary(withIdentifier: "shelf", from: CGPoint(x: 0, y: 700), to: CGPoint(x: 1000, y: 700))
        a.step(by: 2)
        #expect(abs(item.center.y - 650) < 1, "rests on the shelf: \(item.center.y)")
        collision.removeBoundary(withIdentifier: "shelf")
        #expect(collision.boundaryIdentifiers.isEmpty)
        a.step(by: 1)
        #expect(item.center.y > 1000, "fell on: \(item.center.y)")
    }

    @Test("a concave closed loop: a ball dropped into a U-shaped boundary rests on its inner floor")
    func concaveLoop() {
        let a = animator()
        // The wall of a cup, 50 pt thick: outer floor at 900, inner floor at 850, rims at 600.
        let cup = [(300, 600), (300, 900), (700, 900), (700, 600), (650, 600), (650, 850), (350, 850), (350, 600)]
        let path = BezierPath()
        path.move(to: CGPoint(x: cup[0].0, y: cup[0].1))
        for (x, y) in cup.dropFirst() { path.addLine(to: CGPoint(x: x, y: y)) }
        path.close()
        let ball = DynamicBody(center: CGPoint(x: 500, y: 400), size: CGSize(width: 100, height: 100),
                               collisionBoundsType: .ellipse)
        let collision = CollisionBehavior(items: [ball])
        collision.addBoundary(withIdentifier: "cup", for: path)
        a.addBehavior(GravityBehavior(items: [ball]))
        a.addBehavior(collision)
        a.step(by: 3)
        #expect(abs(ball.center.y - 800) < 1 && abs(ball.center.x - 500) < 1, "rests at \(ball.center)")
    }

    @Test("past a bend in a path, a wall's line does not reach into the space beyond: items in a funnel's stem stay put",
          arguments: [DynamicItemCollisionBoundsType.ellipse, .rectangle])
    func bendDoesNotReachPast(kind: DynamicItemCollisionBoundsType) {
        let a = animator()
        // A funnel (funnelPath): the left slope's line runs on past its end at (145, 400) into the stem, 2.8 pt to
        // the right for every pt down.
        let path = funnelPath()
        // A 20 pt item at rest, no gravity, 2 pt from the left wall, its top level with the neck: the slope's line
        // passes 7.9 pt from its centre (a box's lower left corner lies 4.8 pt beyond it). It touches nothing real,
        // so it stays where it is; meeting the line, a ball was pushed away.
        let item = DynamicBody(center: CGPoint(x: 157, y: 410), size: CGSize(width: 20, height: 20),
                               collisionBoundsType: kind)
        let collision = CollisionBehavior(items: [item])
        collision.addBoundary(withIdentifier: "funnel", for: path)
        a.addBehavior(collision)
        a.step(by: 0.5)
        #expect(item.center == CGPoint(x: 157, y: 410), "\(kind): moved to \(item.center)")
        #expect(item.rotation == 0, "\(kind): turned to \(item.rotation) rad")
    }

    @Test("a cubic curve boundary: a ball rests in the curve's lowest point, not on its chord")
    func curveBoundary() {
        let a = animator()
        // From (0, 800) to (1 000, 800), controls at y = 1 000: the curve's lowest point is (500, 950).
        let path = BezierPath()
        path.move(to: CGPoint(x: 0, y: 800))
        path.addCurve(to: CGPoint(x: 1000, y: 800), controlPoint1: CGPoint(x: 300, y: 1000),
                      controlPoint2: CGPoint(x: 700, y: 1000))
        let ball = DynamicBody(center: CGPoint(x: 500, y: 500), size: CGSize(width: 50, height: 50),
                               collisionBoundsType: .ellipse)
        let collision = CollisionBehavior(items: [ball])
        collision.addBoundary(withIdentifier: "sag", for: path)
        let material = DynamicItemBehavior(items: [ball])
        material.friction = 0.5
        a.addBehavior(GravityBehavior(items: [ball]))
        a.addBehavior(collision)
        a.addBehavior(material)
        a.step(by: 3)
        // The flattened curve has a vertex at (500, 950); the segments beside it slope by about 2°. The chord would
        // hold it at 775.
        #expect(abs(ball.center.y - 925) < 1, "rests at \(ball.center)")
        #expect(abs(ball.center.x - 500) < 5, "rests at \(ball.center)")  // it may still rock a little in the valley
    }

    @Test("item–item and identified-boundary contacts begin and end through the delegate, on the caller's thread")
    func eventsThroughDelegate() {
        let a = animator()
        let anchored = box(500, 500), thrown = box(200, 500), dropped = box(800, 900)
        let log = ContactLog()
        let collision = CollisionBehavior(items: [anchored, thrown, dropped])
        collision.addBoundary(withIdentifier: "floor", from: CGPoint(x: 0, y: 1000), to: CGPoint(x: 1000, y: 1000))
        collision.collisionDelegate = log
        let anchor = DynamicItemBehavior(items: [anchored])
        anchor.isAnchored = true
        let bouncy = DynamicItemBehavior(items: [thrown])
        bouncy.elasticity = 1
        a.addBehavior(collision)
        a.addBehavior(anchor)
        a.addBehavior(bouncy)
        a.addBehavior(GravityBehavior(items: [dropped]))
        bouncy.addLinearVelocity(CGPoint(x: 500, y: 0), for: thrown)
        let caller = Thread.current
        a.step(by: 1)
        // The thrown box meets the anchored one at 0.2 s and bounces back (elasticity 1); the dropped box lands
        // on the floor segment "floor" and stays.
        #expect(log.events == ["began floor", "began items", "ended items"], "\(log.events)")
        #expect(log.threads.count == 3 && log.threads.allSatisfy { $0 == caller }, "called off the caller's thread")
        #expect(thrown.center.x < 300, "bounced back to \(thrown.center.x)")
    }
}
