// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// Exclusion groups (beyond UIKit, ``CollisionFilter/exclusionGroup``): shapes that share a nonzero exclusion
/// group never collide, whatever their item groups; every other pair collides as the groups say. Two 100 pt boxes
/// 300 pt apart close at 200 pt/s each: without a contact they pass through each other on the closed form
/// x = x₀ ± 200·t; with one they stop short of overlapping.
@Suite struct ExclusionGroupTests {
    /// Two boxes closing head-on, the left one at x = −150 pt, the right at +150 pt, with the exclusion groups given.
    func closing(_ left: Int, _ right: Int) throws -> (DynamicWorld, [ItemID]) {
        var c = DynamicsConfiguration()
        c.workerCount = 1
        let w = try DynamicWorld(configuration: c)
        let ids = try w.createItems(ItemDescription(), at: [CGPoint(x: -150, y: 0), CGPoint(x: 150, y: 0)])
        try w.addCollisionShape(.rectangle(width: 100, height: 100),
                                filter: CollisionFilter(itemGroups: 1, boundaryGroups: 1, exclusionGroup: left),
                                to: [ids[0]])
        try w.addCollisionShape(.rectangle(width: 100, height: 100),
                                filter: CollisionFilter(itemGroups: 1, boundaryGroups: 1, exclusionGroup: right),
                                to: [ids[1]])
        try w.setVelocities([CGVector(dx: 200, dy: 0), CGVector(dx: -200, dy: 0)], for: ids)
        return (w, ids)
    }

    @Test("boxes of one nonzero exclusion group pass through each other on the closed form", arguments: [7, -3])
    func sameGroupPasses(group: Int) throws {
        let (w, ids) = try closing(group, group)
        try w.step(count: 120) // 2 s: each moves 400 pt
        #expect(abs(w.pose(of: ids[0]).center.x - 250) < 1e-2, "left at \(w.pose(of: ids[0]).center)")
        #expect(abs(w.pose(of: ids[1]).center.x + 250) < 1e-2, "right at \(w.pose(of: ids[1]).center)")
        #expect(w.velocity(of: ids[0]) == CGVector(dx: 200, dy: 0))
    }

    @Test("boxes of different exclusion groups, or of group 0, collide and do not pass",
          arguments: [(1, 2), (0, 0), (5, 0)])
    func otherGroupsCollide(groups: (Int, Int)) throws {
        let (w, ids) = try closing(groups.0, groups.1)
        try w.step(count: 120)
        let gap = w.pose(of: ids[1]).center.x - w.pose(of: ids[0]).center.x
        #expect(gap > 98, "the boxes' centres are \(gap) pt apart: they overlap or passed")
    }

    @Test("setting one exclusion group mid-run lets boxes in contact part through each other")
    func setMidRun() throws {
        let (w, ids) = try closing(1, 2)
        try w.step(count: 60) // they meet after 0.25 s and push against each other
        try w.setVelocities([CGVector(dx: 200, dy: 0), CGVector(dx: -200, dy: 0)], for: ids)
        try w.setCollisionFilter(CollisionFilter(itemGroups: 1, boundaryGroups: 1, exclusionGroup: 9), for: ids)
        let before = w.pose(of: ids[0]).center.x
        try w.step(count: 60)
        #expect(abs(w.pose(of: ids[0]).center.x - before - 200) < 1e-2, "left moved \(w.pose(of: ids[0]).center.x - before)")
    }

    @Test("an exclusion group outside Int32 throws naming the field and changes nothing")
    func outOfRange() throws {
        let w = try DynamicWorld()
        let id = try w.createItems(ItemDescription(), at: [.zero])[0]
        let filter = CollisionFilter(itemGroups: 1, boundaryGroups: 1, exclusionGroup: 1 << 40)
        let mass = w.mass(of: id)
        #expect(throws: DynamicsError.invalidValue(field: "exclusionGroup", value: Double(1 << 40), index: nil)) {
            try w.addCollisionShape(.circle(radius: 10), filter: filter, to: [id])
        }
        #expect(throws: DynamicsError.invalidValue(field: "exclusionGroup", value: Double(1 << 40), index: nil)) {
            try w.setCollisionFilter(filter, for: [id])
        }
        #expect(w.mass(of: id) == mass, "no shape was added")
    }
}
