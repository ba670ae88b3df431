// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// Queries of the batch world (beyond UIKit): which items lie at a point or overlap a region, and what a ray
/// enters, against closed forms written here (a point in a circle or a turned box, two axis-aligned boxes, the
/// entry of a ray into a circle and into a box).
@Suite struct QueryTests {
    /// 200 circles and 200 turned boxes at pseudo-random places (no step: the poses are exactly the given ones),
    /// circles in collision group 1, boxes in group 2.
    struct Scatter {
        let world: DynamicWorld
        let circles: [ItemID], boxes: [ItemID]
        let centres: [CGPoint], radii: [CGFloat], boxCentres: [CGPoint], angles: [CGFloat], halves: [CGSize]
    }

    /// An empty world stepping on `workers` workers.
    static func world(workers: Int) throws -> DynamicWorld {
        var c = DynamicsConfiguration()
        c.workerCount = workers
        return try DynamicWorld(configuration: c)
    }

    static func scatter() throws -> Scatter {
        var seed: UInt64 = 0x9e3779b97f4a7c15
        func next() -> CGFloat {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return CGFloat(seed >> 40) / CGFloat(1 << 24)
        }
        let w = try Self.world(workers: 1)
        let centres = (0..<200).map { _ in CGPoint(x: 2000 * next(), y: 2000 * next()) }
        let radii = (0..<200).map { _ in 5 + 40 * next() }
        let boxCentres = (0..<200).map { _ in CGPoint(x: 2000 * next(), y: 2000 * next()) }
        let angles = (0..<200).map { _ in 6 * next() - 3 }
        let halves = (0..<200).map { _ in CGSize(width: 5 + 40 * next(), height: 5 + 40 * next()) }
        let circles = try w.createItems(ItemDescription(), at: centres)
        for (id, r) in zip(circles, radii) {
            try w.addCollisionShape(.circle(radius: r), filter: CollisionFilter(itemGroups: 1, boundaryGroups: 1), to: [id])
        }
        let boxes = try w.createItems(ItemDescription(), at: boxCentres)
        try w.setPositions(boxCentres, angles: angles, for: boxes)
        for (id, h) in zip(boxes, halves) {
            try w.addCollisionShape(.rectangle(width: 2 * h.width, height: 2 * h.height),
                                    filter: CollisionFilter(itemGroups: 2, boundaryGroups: 1), to: [id])
        }
        return Scatter(world: w, circles: circles, boxes: boxes, centres: centres, radii: radii, boxCentres: boxCentres,
                       angles: angles, halves: halves)
    }

    /// Point p in box k: p turned into the box's frame lies within its half-sides.
    static func inBox(_ s: Scatter, _ k: Int, _ p: CGPoint) -> Bool {
        let dx = p.x - s.boxCentres[k].x, dy = p.y - s.boxCentres[k].y, a = s.angles[k]
        let lx = cos(a) * dx + sin(a) * dy, ly = -sin(a) * dx + cos(a) * dy
        return abs(lx) <= s.halves[k].width && abs(ly) <= s.halves[k].height
    }

    @Test("items at a point are the circles and turned boxes that contain it")
    func itemsAtPoints() throws {
        let s = try Self.scatter()
        var found = 0
        for i in 0..<600 {
            let p = CGPoint(x: CGFloat(i * 7919 % 2000), y: CGFloat(i * 104_729 % 2000))
            // Points within 0.01 pt of an edge are left out: Float poses may put them on either side.
            let nearEdge = s.centres.indices.contains { abs(hypot(p.x - s.centres[$0].x, p.y - s.centres[$0].y) - s.radii[$0]) < 0.01 }
            if nearEdge { continue }
            var expected = s.circles.indices.filter { hypot(p.x - s.centres[$0].x, p.y - s.centres[$0].y) <= s.radii[$0] }
                .map { s.circles[$0] }
            expected += s.boxes.indices.filter { Self.inBox(s, $0, p) }.map { s.boxes[$0] }
            let got = try s.world.items(at: p)
            #expect(Set(got) == Set(expected), "at \(p)")
            #expect(got == got.sorted { $0.index < $1.index })
            found += got.count
        }
        #expect(found > 20, "only \(found) items found: the test would not see a query that finds nothing")
    }

    @Test("items overlapping a rectangle are the axis-aligned boxes whose sides meet it")
    func rectangleOverlaps() throws {
        let w = try Self.world(workers: 1)
        let centres = (0..<400).map { CGPoint(x: CGFloat($0 % 20) * 50 + 3, y: CGFloat($0 / 20) * 50 + 7) }
        let ids = try w.createItems(ItemDescription(), at: centres)
        try w.addCollisionShape(.rectangle(width: 30, height: 20), to: ids)
        for (k, rect) in [CGRect(x: 100, y: 100, width: 240, height: 90), CGRect(x: -500, y: -500, width: 510, height: 520),
                          CGRect(x: 410, y: 0, width: 1, height: 1000), CGRect(x: 0, y: 0, width: 2000, height: 2000)].enumerated()
        {
            let expected = zip(ids, centres).filter { _, c in
                c.x - 15 <= rect.maxX && c.x + 15 >= rect.minX && c.y - 10 <= rect.maxY && c.y + 10 >= rect.minY
            }.map(\.0)
            #expect(try w.items(overlapping: .rectangle(rect)) == expected, "rectangle \(k)")
        }
    }

    @Test("a group filter sees only its group; boundaries come only when asked for")
    func filters() throws {
        let s = try Self.scatter()
        let all = try s.world.items(overlapping: .rectangle(CGRect(x: 0, y: 0, width: 2000, height: 2000)))
        #expect(all.count == 400)
        let circlesOnly = try s.world.items(overlapping: .rectangle(CGRect(x: 0, y: 0, width: 2000, height: 2000)),
                                            filter: QueryFilter(groups: 1))
        #expect(circlesOnly == s.circles)
        let wall = try s.world.addBoundary(from: CGPoint(x: -10, y: -10), to: CGPoint(x: -10, y: 3000))
        let parties = try s.world.parties(overlapping: .circle(center: CGPoint(x: -10, y: 500), radius: 1))
        #expect(parties == [.boundary(wall)])
        #expect(try s.world.items(at: CGPoint(x: -10, y: 500)).isEmpty)
    }

    @Test("the default filter sees an item in no item group (it meets only boundaries); a group filter does not")
    func itemInNoGroup() throws {
        let w = try Self.world(workers: 1)
        let ids = try w.createItems(ItemDescription(), at: [CGPoint(x: 100, y: 100), CGPoint(x: 300, y: 100)])
        try w.addCollisionShape(.circle(radius: 20), filter: CollisionFilter(itemGroups: 0, boundaryGroups: 1), to: [ids[0]])
        try w.addCollisionShape(.circle(radius: 20), filter: CollisionFilter(itemGroups: 1, boundaryGroups: 1), to: [ids[1]])
        let everywhere = QueryShape.rectangle(CGRect(x: 0, y: 0, width: 400, height: 200))
        #expect(try w.items(overlapping: everywhere) == ids)
        #expect(try w.items(at: CGPoint(x: 110, y: 100)) == [ids[0]])
        #expect(try w.items(overlapping: everywhere, filter: QueryFilter(groups: 1)) == [ids[1]])
        #expect(try w.items(overlapping: everywhere, filter: QueryFilter(groups: 0)).isEmpty)
        #expect(try w.rayCast(from: CGPoint(x: 0, y: 100), to: CGPoint(x: 400, y: 100))?.party == .item(ids[0]))
    }

    @Test("a ray enters a circle where |p + t·d − c| = r first holds, along the outward normal")
    func rayIntoCircle() throws {
        let w = try Self.world(workers: 1)
        let id = try w.createItems(ItemDescription(), at: [CGPoint(x: 300, y: 200)])[0]
        try w.addCollisionShape(.circle(radius: 50), to: [id])
        for k in 0..<50 {
            // Through the centre (300, 200) from every start: the end mirrors the start about it.
            let start = CGPoint(x: 0, y: CGFloat(k) * 8), end = CGPoint(x: 600, y: 400 - CGFloat(k) * 8)
            let d = CGVector(dx: end.x - start.x, dy: end.y - start.y), m = CGVector(dx: start.x - 300, dy: start.y - 200)
            let a = d.dx * d.dx + d.dy * d.dy, b = m.dx * d.dx + m.dy * d.dy, cc = m.dx * m.dx + m.dy * m.dy - 2500
            let t = (-b - (b * b - a * cc).squareRoot()) / a
            let hit = try #require(try w.rayCast(from: start, to: end))
            #expect(hit.party == .item(id))
            #expect(abs(hit.fraction - t) < 1e-5, "ray \(k): \(hit.fraction) against \(t)")
            let px = start.x + t * d.dx, py = start.y + t * d.dy
            #expect(abs(hit.point.x - px) < 1e-2 && abs(hit.point.y - py) < 1e-2)
            #expect(abs(hit.normal.dx - (px - 300) / 50) < 1e-4 && abs(hit.normal.dy - (py - 200) / 50) < 1e-4)
        }
        #expect(try w.rayCast(from: CGPoint(x: 300, y: 200), to: CGPoint(x: 600, y: 200)) == nil,
                "a ray that starts inside enters nothing")
        #expect(try w.rayCast(from: .zero, to: CGPoint(x: 100, y: 0)) == nil, "a ray that ends short enters nothing")
    }

    @Test("every hit of a ray through a row of boxes, in order, at the boxes' near sides")
    func rayThroughRow() throws {
        let w = try Self.world(workers: 1)
        let ids = try w.createItems(ItemDescription(), at: (0..<10).map { CGPoint(x: 100 + 100 * CGFloat($0), y: 0) })
        try w.addCollisionShape(.rectangle(width: 40, height: 40), to: ids)
        let hits = try w.rayCastAll(from: CGPoint(x: 0, y: 5), to: CGPoint(x: 1000, y: 5))
        #expect(hits.map(\.party) == ids.map { .item($0) }, "the tenth box's near side is at x = 980, short of the end")
        for (k, hit) in hits.enumerated() {
            #expect(abs(hit.fraction - (80 + 100 * CGFloat(k)) / 1000) < 1e-6)
            #expect(hit.normal == CGVector(dx: -1, dy: 0))
        }
        #expect(try w.rayCast(from: CGPoint(x: 1000, y: 5), to: CGPoint(x: 0, y: 5))?.party == .item(ids[8]),
                "backwards from inside the tenth box, the first box entered is the ninth")
    }

    @Test("queries see poses set and steps taken since the last query")
    func afterChanges() throws {
        let w = try Self.world(workers: 2)
        let ids = try w.createItems(ItemDescription(), at: [CGPoint(x: 0, y: 0), CGPoint(x: 500, y: 0)])
        try w.addCollisionShape(.circle(radius: 10), to: ids)
        #expect(try w.items(at: .zero) == [ids[0]])
        try w.setPositions([CGPoint(x: 1000, y: 0)], for: [ids[0]])
        #expect(try w.items(at: .zero).isEmpty)
        #expect(try w.items(at: CGPoint(x: 1000, y: 0)) == [ids[0]])
        try w.setVelocities([CGVector(dx: 0, dy: 600)], for: [ids[1]])
        try w.step(count: 60) // 1 s at 600 pt/s, no gravity: y = 600
        #expect(try w.items(at: CGPoint(x: 500, y: 600)) == [ids[1]])
        #expect(try w.items(at: CGPoint(x: 500, y: 0)).isEmpty)
        try w.removeItems([ids[1]])
        #expect(try w.items(at: CGPoint(x: 500, y: 600)).isEmpty)
    }

    @Test("bulk ray casts and point queries answer each ray and point as the single queries do, at 1 and 2 workers",
          arguments: [1, 2])
    func bulk(workers: Int) throws {
        let s = try Self.scatter()
        var configuration = s.world.configuration
        configuration.workerCount = workers
        try s.world.reconfigure(configuration)
        var starts: [CGPoint] = [], ends: [CGPoint] = []
        for k in 0..<3000 {
            let x = CGFloat(k * 7919 % 2000), y = CGFloat(k * 104_729 % 2000)
            let dx = CGFloat(k % 7) * 60 - 180, dy = CGFloat(k % 5) * 70 - 140
            starts.append(CGPoint(x: x, y: y))
            ends.append(CGPoint(x: x + dx, y: y + dy))
        }
        var hits: [RayHit?] = [nil]
        try s.world.rayCast(from: starts, to: ends, into: &hits)
        #expect(hits.count == 3000)
        var items: [ItemID?] = []
        try s.world.items(at: starts, into: &items)
        var hitCount = 0, insideCount = 0
        for k in 0..<3000 {
            #expect(hits[k] == (try s.world.rayCast(from: starts[k], to: ends[k])), "ray \(k)")
            let single = try s.world.items(at: starts[k])
            // The item of the first shape made: here each item has one shape, made in index order.
            #expect(items[k] == single.first, "point \(k)")
            hitCount += hits[k] == nil ? 0 : 1
            insideCount += single.isEmpty ? 0 : 1
        }
        #expect(hitCount > 300 && insideCount > 50, "\(hitCount) rays hit, \(insideCount) points inside")
        #expect(throws: DynamicsError.invalidValue(field: "ends.count", value: 1, index: nil)) {
            try s.world.rayCast(from: starts, to: [.zero], into: &hits)
        }
        #expect(throws: DynamicsError.invalidValue(field: "x1", value: .infinity, index: 1)) {
            try s.world.rayCast(from: [.zero, .zero], to: [.zero, CGPoint(x: CGFloat.infinity, y: 0)], into: &hits)
        }
        #expect(hits.count == 3000, "a failed call leaves the buffer as it was")
    }

    @Test("a query shape that is not one throws, naming what is wrong")
    func badShapes() throws {
        let w = try DynamicWorld()
        // A dent at the third point: the turn from the second edge to the third is −60 (the others +).
        #expect(throws: DynamicsError.invalidValue(field: "convexity", value: -60, index: 1)) {
            try w.items(overlapping: .polygon([.zero, CGPoint(x: 10, y: 0), CGPoint(x: 2, y: 2), CGPoint(x: 0, y: 10)]))
        }
        #expect(throws: DynamicsError.invalidValue(field: "radius", value: -1, index: nil)) {
            try w.items(overlapping: .circle(center: .zero, radius: -1))
        }
        #expect(throws: DynamicsError.self) { try w.items(at: CGPoint(x: CGFloat.nan, y: 0)) }
        #expect(throws: DynamicsError.self) { try w.rayCast(from: .zero, to: CGPoint(x: CGFloat.infinity, y: 0)) }
        #expect(throws: DynamicsError.self) { try w.items(overlapping: .polygon((0..<17).map { CGPoint(x: $0, y: $0 * $0) })) }
    }
}
