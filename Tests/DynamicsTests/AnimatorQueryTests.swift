// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// `DynamicAnimator.items(in:)`: the items whose collision outline meets a rectangle, answered from the world's
/// queries for items in a collision behaviour and by the same exact test for the others, against closed forms
/// written here (separating axes for a turned rectangle or a triangle against the rect, the nearest point of the
/// rect for a circle).
@Suite struct AnimatorQueryTests {
    /// An outline in world coordinates: a convex polygon, or a circle (one point and its radius).
    struct Outline {
        let points: [CGPoint]
        let radius: CGFloat
    }

    static func triangle(_ r: CGFloat) -> [CGPoint] {
        [CGPoint(x: r, y: 0), CGPoint(x: -r / 2, y: r * 0.8), CGPoint(x: -r / 2, y: -r * 0.9)]
    }

    /// The outline of a body at its pose: a turned rectangle, a circle (an ellipse as wide as it is high) or its
    /// path turned and moved.
    static func outline(of body: DynamicBody) -> Outline {
        let angle = atan2(body.transform.b, body.transform.a)
        let (c, s) = (cos(angle), sin(angle))
        func place(_ p: CGPoint) -> CGPoint {
            CGPoint(x: body.center.x + c * p.x - s * p.y, y: body.center.y + s * p.x + c * p.y)
        }
        let (w, h) = (body.bounds.width, body.bounds.height)
        switch body.collisionBoundsType {
        case .ellipse: return Outline(points: [body.center], radius: w / 2)
        case .path: return Outline(points: triangle(w / 2).map(place), radius: 0)
        default:
            return Outline(points: [CGPoint(x: -w / 2, y: -h / 2), CGPoint(x: w / 2, y: -h / 2),
                                    CGPoint(x: w / 2, y: h / 2), CGPoint(x: -w / 2, y: h / 2)].map(place), radius: 0)
        }
    }

    /// Whether an outline meets a rect (closed sets).
    static func meets(_ o: Outline, _ rect: CGRect) -> Bool {
        if o.radius > 0 {
            let p = o.points[0]
            let dx = p.x - min(max(p.x, rect.minX), rect.maxX), dy = p.y - min(max(p.y, rect.minY), rect.maxY)
            return dx * dx + dy * dy <= o.radius * o.radius
        }
        let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                       CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)]
        var axes = [CGVector(dx: 1, dy: 0), CGVector(dx: 0, dy: 1)]
        for (a, b) in zip(o.points, o.points.dropFirst() + [o.points[0]]) { axes.append(CGVector(dx: b.y - a.y, dy: a.x - b.x)) }
        return axes.allSatisfy { n in
            let p = o.points.map { $0.x * n.dx + $0.y * n.dy }, q = corners.map { $0.x * n.dx + $0.y * n.dy }
            return p.max()! >= q.min()! && q.max()! >= p.min()!
        }
    }

    @Test("items(in:) finds the turned boxes, circles and triangles whose outline meets the rect, in collision behaviours or not")
    func againstClosedForms() {
        var seed: UInt64 = 0x2545f4914f6cdd1d
        func next() -> CGFloat {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return CGFloat(seed >> 40) / CGFloat(1 << 24)
        }
        let kinds: [DynamicItemCollisionBoundsType] = [.rectangle, .ellipse, .path]
        let bodies = (0..<150).map { k -> DynamicBody in
            let w = 10 + 60 * next(), h = 10 + 60 * next(), kind = kinds[k % 3]
            let size = kind == .rectangle ? CGSize(width: w, height: h) : CGSize(width: w, height: w)
            return DynamicBody(center: CGPoint(x: 2000 * next(), y: 2000 * next()), size: size, rotation: 6 * next() - 3,
                               collisionBoundsType: kind,
                               collisionBoundingPath: kind == .path ? closedPath(Self.triangle(w / 2)) : nil)
        }
        let animator = makeAnimator()
        animator.addBehavior(DynamicItemBehavior(items: bodies))
        // Every other body collides: with items, or (every sixth) with boundaries only, in no item group.
        let colliding = CollisionBehavior(items: bodies.indices.filter { $0 % 2 == 0 && $0 % 6 != 0 }.map { bodies[$0] })
        let boundaryOnly = CollisionBehavior(items: bodies.indices.filter { $0 % 6 == 0 }.map { bodies[$0] })
        boundaryOnly.collisionMode = .boundaries
        animator.addBehavior(colliding)
        animator.addBehavior(boundaryOnly)
        animator.step(by: 1.0 / 60)
        let everything = animator.items(in: .infinite).map { ObjectIdentifier($0) }
        #expect(Set(everything) == Set(bodies.map { ObjectIdentifier($0) }))
        let outlines = bodies.map(Self.outline)
        var compared = 0, found = 0
        for k in 0..<300 {
            let rect = CGRect(x: 2100 * next() - 50, y: 2100 * next() - 50, width: 150 * next(), height: 150 * next())
            // Rects within 0.05 pt of an outline are left out: the world's poses are single precision.
            let grown = rect.insetBy(dx: -0.05, dy: -0.05), shrunk = rect.insetBy(dx: 0.05, dy: 0.05)
            guard outlines.allSatisfy({ Self.meets($0, grown) == Self.meets($0, shrunk) }) else { continue }
            let expected = Set(bodies.indices.filter { Self.meets(outlines[$0], rect) }.map { ObjectIdentifier(bodies[$0]) })
            let answer = animator.items(in: rect).map { ObjectIdentifier($0) }
            #expect(Set(answer) == expected, "rect \(k): \(rect)")
            #expect(answer == everything.filter { expected.contains($0) }, "rect \(k): in the order the items joined")
            compared += 1
            found += expected.count
        }
        #expect(compared > 250 && found > 100, "compared \(compared) rects, \(found) items found")
    }

    @Test("an ellipse is found by its outline, not its frame, with or without a collision behaviour", arguments: [false, true])
    func ellipseOutline(colliding: Bool) {
        let body = DynamicBody(center: .zero, size: CGSize(width: 200, height: 50), collisionBoundsType: .ellipse)
        let animator = makeAnimator()
        animator.addBehavior(DynamicItemBehavior(items: [body]))
        if colliding { animator.addBehavior(CollisionBehavior(items: [body])) }
        animator.step(by: 1.0 / 60)
        // At x = 95 the ellipse reaches y = 25·√(1 − 0.95²) ≈ 7.8: the frame's corner (95…100, 20…25) is outside.
        #expect(animator.items(in: CGRect(x: 95, y: 20, width: 5, height: 5)).isEmpty)
        #expect(animator.items(in: CGRect(x: 95, y: 5, width: 5, height: 2)).count == 1)
        #expect(animator.items(in: CGRect(x: 99, y: -1, width: 10, height: 2)).count == 1)
    }

    @Test("a null rect meets nothing; a rect with no width or height is a segment or a point")
    func degenerateRects() {
        let body = square(at: CGPoint(x: 0, y: 0))
        let animator = makeAnimator()
        animator.addBehavior(DynamicItemBehavior(items: [body]))
        animator.addBehavior(CollisionBehavior(items: [body]))
        animator.step(by: 1.0 / 60)
        #expect(animator.items(in: .null).isEmpty)
        #expect(animator.items(in: CGRect(x: 10, y: 10, width: 0, height: 0)).count == 1)
        #expect(animator.items(in: CGRect(x: 60, y: 10, width: 0, height: 0)).isEmpty)
        #expect(animator.items(in: CGRect(x: 40, y: 10, width: 20, height: 0)).count == 1)
        #expect(animator.items(in: CGRect(x: 60, y: -100, width: 0, height: 200)).isEmpty)
        #expect(animator.items(in: CGRect(x: -300, y: -300, width: -10, height: -10)).isEmpty)
        #expect(animator.items(in: CGRect(x: 55, y: 55, width: -10, height: -10)).count == 1, "standardized")
    }
}
