// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension Scene {
    /// Every built-in scene, in the order `dynamics scenes` lists them.
    public static let builtIn: [Scene] = [
        .default, .integration, .pile, .pileCircles, .pyramid, .manyPyramids, .smash, .scatter, .scatterGiants, .jointGrid, .tumbler,
        .compounds, .washer, .junkyard, .spinner, .rain, .chain, .bridge, .fields, .stickyCorners,
    ]

    /// The built-in scene called `name`, if any.
    public static func named(_ name: String) -> Scene? { builtIn.first { $0.name == name } }

    /// The default scene: a grid of 100 × 100 pt boxes at 120 pt pitch under gravity, colliding with each
    /// other and with a box-shaped container around the grid. Every third item has resistance 1/s, every
    /// fifth a 2 N push at 30 pt off-centre (so it spins), and every seventh a snap spring to a point
    /// 150 pt above its start (it sags under gravity and comes to rest).
    public static let `default` = Scene(
        name: "default", summary: "boxes under gravity with resistance, off-centre pushes and snap springs",
        defaultItems: 10_000, defaultSeconds: 10
    ) { n in
        var d = SceneDocument()
        d.generators = [grid("box", n, shape: .rectangle(width: 100, height: 100))]
        let centers = ((try? d.generatedItems())?.first ?? []).map(\.center)  // a grid: it never throws
        var resistance = SceneItemBehavior()
        resistance.targets = SceneTargets(items: stride(from: 0, to: n, by: 3).map { "box-\($0)" })
        resistance.resistance = 1
        resistance.angularResistance = 1
        var push = ScenePush()
        push.targets = SceneTargets(items: stride(from: 1, to: n, by: 5).map { "box-\($0)" })
        push.vector = CGVector(dx: 2, dy: 0)
        push.offset = Offset(horizontal: 0, vertical: 30)  // torque cross((0, 30), (2, 0)) = −60 N·pt
        let side = Double(Int(Double(n).squareRoot().rounded(.up))) * 120
        let corners = [CGPoint(x: -200, y: -400), CGPoint(x: -200, y: side + 200),
                       CGPoint(x: side + 80, y: side + 200), CGPoint(x: side + 80, y: -400)]
        d.behaviors = [SceneDocument.gravity(), SceneBehavior(id: "resistance", .item(resistance)), SceneBehavior(id: "push", .push(push))]
        d.behaviors += stride(from: 2, to: n, by: 7).map { k in
            SceneBehavior(id: "snap-\(k)", .snap(item: "box-\(k)", point: CGPoint(x: centers[k].x, y: centers[k].y - 150),
                                                 dampingRatio: 0.525, frequency: 2.5))
        }
        d.behaviors.append(SceneDocument.collision(segments: (0..<4).map { ("wall-\($0)", corners[$0], corners[($0 + 1) % 4]) }))
        return d
    }

    /// Integration only: every item has gravity, resistance 0.5/s and a 1 N push through its centre.
    /// The benchmark of one integration step uses it.
    public static let integration = Scene(
        name: "integration", summary: "integration only: gravity, resistance and a centred push on every item",
        defaultItems: 100_000, defaultSeconds: 5
    ) { n in
        var d = SceneDocument()
        var g = grid("item", n, shape: .rectangle(width: 100, height: 100))
        g.material.resistance = 0.5
        g.material.angularResistance = 0.5
        d.generators = [g]
        var push = ScenePush()
        push.vector = CGVector(dx: 1, dy: 0)
        d.behaviors = [SceneDocument.gravity(), SceneBehavior(id: "push", .push(push))]
        return d
    }

    /// `n` items on a square-ish grid of 120 pt pitch, row by row, starting at the origin.
    static func grid(_ id: String, _ n: Int, shape: SceneShape) -> SceneGenerator {
        let columns = max(1, Int(Double(n).squareRoot().rounded(.up)))
        return SceneGenerator(id: id, count: n, layout: .grid(origin: .zero, columns: columns, spacing: CGVector(dx: 120, dy: 120)),
                              shape: shape)
    }
}
