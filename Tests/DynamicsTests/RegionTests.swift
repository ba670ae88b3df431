// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// `Region` against its definition: closed-form shapes and set algebra checked point by point.
@Suite struct RegionTests {
    /// Points on a 2 pt lattice over ±120 pt (edges are checked separately).
    let points: [CGPoint] = stride(from: -120.0, through: 120.0, by: 2.0).flatMap { x in
        stride(from: -120.0, through: 120.0, by: 2.0).map { CGPoint(x: x, y: $0) }
    }

    @Test("a circle and a rectangle contain exactly the points of their closed forms, edges included")
    func shapes() {
        let circle = Region(radius: 50), box = Region(size: CGSize(width: 80, height: 30))
        for p in points {
            #expect(circle.contains(p) == (p.x * p.x + p.y * p.y <= 2500), "circle at \(p)")
            #expect(box.contains(p) == (abs(p.x) <= 40 && abs(p.y) <= 15), "rectangle at \(p)")
        }
        #expect(circle.contains(CGPoint(x: 30, y: 40)) && !circle.contains(CGPoint(x: 30, y: 40.001)))
        #expect(box.contains(CGPoint(x: -40, y: 15)) && !box.contains(CGPoint(x: -40.001, y: 0)))
        #expect(Region.infinite.contains(CGPoint(x: 1e30, y: -1e30)))
    }

    @Test("inverse, union, difference and intersection follow the set algebra of their operands")
    func algebra() {
        let a = Region(radius: 60), b = Region(size: CGSize(width: 150, height: 40))
        for p in points {
            let inA = p.x * p.x + p.y * p.y <= 3600, inB = abs(p.x) <= 75 && abs(p.y) <= 20
            #expect(a.inverse().contains(p) == !inA)
            #expect(a.byUnion(with: b).contains(p) == (inA || inB))
            #expect(a.byDifference(from: b).contains(p) == (inA && !inB))
            #expect(b.byDifference(from: a).contains(p) == (inB && !inA))
            #expect(a.byIntersection(with: b).contains(p) == (inA && inB))
            #expect(a.byUnion(with: b).inverse().contains(p) == (!inA && !inB))
        }
    }

    @Test("the infinite region: its inverse is empty, a union with it is infinite, an intersection is the other")
    func infinite() {
        let empty = Region.infinite.inverse(), circle = Region(radius: 10)
        let far = CGPoint(x: 500, y: 0), near = CGPoint(x: 5, y: 0)
        #expect(!empty.contains(.zero) && !empty.contains(far))
        #expect(circle.byUnion(with: .infinite) == .infinite)
        #expect(circle.byIntersection(with: .infinite) == circle)
        #expect(empty.inverse() == .infinite)
        #expect(circle.byDifference(from: .infinite).contains(near) == false)
        #expect(circle.inverse().inverse() == circle)
    }

    @Test("regions nest to any depth: 2 000 concentric rings")
    func nesting() {
        // Ring k covers radii (2k, 2k + 1]; their union holds a point iff ⌈r⌉ is odd, r ≤ 3 999.
        var rings = Region.infinite.inverse()
        for k in 0..<2000 {
            rings = rings.byUnion(with: Region(radius: CGFloat(2 * k + 1)).byDifference(from: Region(radius: CGFloat(2 * k))))
        }
        for r in stride(from: 0.5, to: 4100, by: 7.25) {
            let expected = r <= 3999 && Int(r.rounded(.up)) % 2 == 1
            #expect(rings.contains(CGPoint(x: 0, y: r)) == expected, "radius \(r)")
        }
    }

    @Test("a negative or non-finite size traps")
    func misuse() async {
        await #expect(processExitsWith: .failure) { _ = Region(radius: -1) }
        await #expect(processExitsWith: .failure) { _ = Region(radius: .nan) }
        await #expect(processExitsWith: .failure) { _ = Region(size: CGSize(width: 10, height: -2)) }
    }
}
