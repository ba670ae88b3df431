// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension Scene {
    /// `joint_grid` (Box2D v3's benchmark): circles of radius 40 pt on a square grid of 100 pt pitch (100 × 100
    /// by default), each pinned to its upper and left neighbours halfway between them; the 7 middle circles
    /// of the top row are anchored; gravity 1000 pt/s² down; no collisions.
    public static let jointGrid = Scene(
        name: "joint_grid", summary: "joint_grid: 100 × 100 circles pinned to their neighbours",
        defaultItems: 10_000, defaultSeconds: 500.0 / 60, shape: "circle", restDetection: false
    ) { n in
        let side = max(2, Int(Double(n).squareRoot().rounded()))
        var d = SceneDocument()
        var anchored = SceneMaterial()
        anchored.anchored = true
        for k in 0..<side {  // column by column, as Box2D's benchmark
            for i in 0..<side {
                let fixed = i == 0 && k >= side / 2 - 3 && k <= side / 2 + 3
                var item = SceneItem(id: "ball-\(k * side + i)", shape: .ellipse(width: 80, height: 80),
                                     center: CGPoint(x: 100 * k, y: 100 * i))
                if fixed { item.material = anchored } else { item.tags = ["moving"] }
                d.items.append(item)
            }
        }
        d.behaviors = [SceneDocument.gravity(SceneTargets(tags: ["moving"]))]
        for k in 0..<side {
            for i in 0..<side {
                let index = k * side + i
                if i > 0 { d.behaviors.append(pin("ball-\(index)", to: "ball-\(index - 1)", at: CGPoint(x: 100 * k, y: 100 * i - 50))) }
                if k > 0 { d.behaviors.append(pin("ball-\(index)", to: "ball-\(index - side)", at: CGPoint(x: 100 * k - 50, y: 100 * i))) }
            }
        }
        return d
    }

    /// A hanging chain: `n` links of 20 × 4 pt pinned end to end, the first to an anchored item, released
    /// horizontally so that it swings down.
    public static let chain = Scene(
        name: "chain", summary: "a chain of pinned links released horizontally from an anchor",
        defaultItems: 100, defaultSeconds: 10
    ) { n in
        var d = SceneDocument()
        var top = SceneItem(id: "anchor", shape: .ellipse(width: 10, height: 10), center: .zero)
        top.material.anchored = true
        d.items = [top] + SceneDocument.listed("link", .rectangle(width: 20, height: 4),
                                                (0..<n).map { CGPoint(x: 20 * CGFloat($0) + 10, y: 0) }, tagged: true)
        d.behaviors = [SceneDocument.gravity(SceneTargets(tags: ["link"]))]
        d.behaviors += (0..<n).map { k in pin("link-\(k)", to: k == 0 ? "anchor" : "link-\(k - 1)", at: CGPoint(x: 20 * CGFloat(k), y: 0)) }
        return d
    }

    /// A bridge of `n` planks (32 × 10 pt at a 40 pt pitch, pinned to each other and to two anchored posts
    /// halfway between them) with a box dropped on every tenth plank; planks and boxes collide. The 8 pt
    /// gaps keep neighbouring planks from touching, as in Box2D's bridge, whose joined bodies do not collide.
    public static let bridge = Scene(
        name: "bridge", summary: "a bridge of pinned planks between two posts, with boxes dropped on it",
        defaultItems: 100, defaultSeconds: 10
    ) { n in
        var d = SceneDocument()
        var anchored = SceneMaterial()
        anchored.anchored = true
        let width = 40 * CGFloat(n)
        var grip = SceneMaterial()
        grip.friction = 0.6
        d.items = SceneDocument.listed("post", .rectangle(width: 20, height: 20), [CGPoint(x: -10, y: 0), CGPoint(x: width + 10, y: 0)],
                                       material: anchored)
        d.items += SceneDocument.listed("plank", .rectangle(width: 32, height: 10), (0..<n).map { CGPoint(x: 40 * CGFloat($0) + 20, y: 0) },
                                        material: grip, tagged: true)
        d.items += SceneDocument.listed("box", .rectangle(width: 30, height: 30),
                                        stride(from: 5, to: n, by: 10).map { CGPoint(x: 40 * CGFloat($0) + 20, y: -200) },
                                        material: grip, tagged: true)
        let moving = SceneTargets(tags: ["plank", "box"])
        d.behaviors = [SceneDocument.gravity(moving), SceneDocument.collision(moving)]
        d.behaviors += (0...n).map { k in
            pin(k < n ? "plank-\(k)" : "post-1", to: k == 0 ? "post-0" : "plank-\(k - 1)", at: CGPoint(x: 40 * CGFloat(k), y: 0))
        }
        return d
    }

    /// A free pin of `item` to `other` at `point`.
    static func pin(_ item: String, to other: String, at point: CGPoint) -> SceneBehavior {
        SceneBehavior(.attachment(SceneAttachment(item: item, other: other, anchor: point, kind: .pin())))
    }
}
