import Dynamics
import Foundation

extension Scene {
    /// BENCH-SCENES `joint_grid` (Box2D v3's benchmark): circles of radius 40 pt on a square grid of
    /// 100 pt pitch (100 × 100 by default), each pinned to its upper and left neighbours halfway between
    /// them; the 7 middle circles of the top row are anchored; gravity 1000 pt/s² down; no collisions.
    public static let jointGrid = Scene(
        name: "joint_grid", summary: "BENCH-SCENES joint_grid: 100 × 100 circles pinned to their neighbours",
        defaultItems: 10_000, defaultSeconds: 500.0 / 60, shape: "circle", restDetection: false
    ) { world, n throws(DynamicsError) in
        let side = max(2, Int(Double(n).squareRoot().rounded()))
        let circle = ItemDescription(shape: .ellipse(width: 80, height: 80))
        var anchored = circle
        anchored.isAnchored = true
        var ids: [ItemID] = []
        ids.reserveCapacity(side * side)
        for k in 0..<side {  // column by column, as Box2D's benchmark
            for i in 0..<side {
                let fixed = i == 0 && k >= side / 2 - 3 && k <= side / 2 + 3
                ids += try world.createItems(fixed ? anchored : circle, at: [CGPoint(x: 100 * k, y: 100 * i)])
            }
        }
        let moving = (0..<ids.count).filter { !($0 % side == 0 && $0 / side >= side / 2 - 3 && $0 / side <= side / 2 + 3) }
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: moving.map { ids[$0] })
        var items: [ItemID] = [], others: [ItemID?] = [], anchors: [CGPoint] = []
        for k in 0..<side {
            for i in 0..<side {
                let index = k * side + i
                if i > 0 {
                    items.append(ids[index]); others.append(ids[index - 1])
                    anchors.append(CGPoint(x: 100 * k, y: 100 * i - 50))
                }
                if k > 0 {
                    items.append(ids[index]); others.append(ids[index - side])
                    anchors.append(CGPoint(x: 100 * k - 50, y: 100 * i))
                }
            }
        }
        try world.addAttachments(.pin(), items: items, to: others, anchors: anchors)
    }

    /// A hanging chain: `n` links of 20 × 4 pt pinned end to end, the first to an anchored item, released
    /// horizontally so that it swings down.
    public static let chain = Scene(
        name: "chain", summary: "a chain of pinned links released horizontally from an anchor",
        defaultItems: 100, defaultSeconds: 10
    ) { world, n throws(DynamicsError) in
        var anchored = ItemDescription(shape: .ellipse(width: 10, height: 10))
        anchored.isAnchored = true
        let top = try world.createItems(anchored, at: [.zero])[0]
        let links = try world.createItems(ItemDescription(shape: .rectangle(width: 20, height: 4)),
                                          at: (0..<n).map { CGPoint(x: 20 * CGFloat($0) + 10, y: 0) })
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: links)
        try world.addAttachments(.pin(), items: links, to: [top] + links.dropLast().map { $0 },
                                 anchors: (0..<n).map { CGPoint(x: 20 * CGFloat($0), y: 0) })
    }

    /// A bridge of `n` planks (32 × 10 pt at a 40 pt pitch, pinned to each other and to two anchored posts
    /// halfway between them) with a box dropped on every tenth plank; planks and boxes collide. The 8 pt
    /// gaps keep neighbouring planks from touching, as in Box2D's bridge, whose joined bodies do not collide.
    public static let bridge = Scene(
        name: "bridge", summary: "a bridge of pinned planks between two posts, with boxes dropped on it",
        defaultItems: 100, defaultSeconds: 10
    ) { world, n throws(DynamicsError) in
        var anchored = ItemDescription(shape: .rectangle(width: 20, height: 20))
        anchored.isAnchored = true
        let width = 40 * CGFloat(n)
        let posts = try world.createItems(anchored, at: [CGPoint(x: -10, y: 0), CGPoint(x: width + 10, y: 0)])
        let planks = try world.createItems(ItemDescription(shape: .rectangle(width: 32, height: 10)),
                                           at: (0..<n).map { CGPoint(x: 40 * CGFloat($0) + 20, y: 0) })
        try world.setMaterial(elasticity: 0, friction: 0.6, charge: 0, for: planks)
        try world.addAttachments(.pin(), items: planks + [posts[1]], to: [posts[0]] + planks,
                                 anchors: (0...n).map { CGPoint(x: 40 * CGFloat($0), y: 0) })
        let boxes = try world.createItems(ItemDescription(shape: .rectangle(width: 30, height: 30)),
                                          at: stride(from: 5, to: n, by: 10).map { CGPoint(x: 40 * CGFloat($0) + 20, y: -200) })
        try world.setMaterial(elasticity: 0, friction: 0.6, charge: 0, for: boxes)
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: planks + boxes)
        try world.addCollisionShape(.rectangle(width: 32, height: 10), to: planks)
        try world.addCollisionShape(.rectangle(width: 30, height: 30), to: boxes)
    }
}
