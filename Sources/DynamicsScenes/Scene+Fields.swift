// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension Scene {
    /// Fields: `n` items (no collisions) on the 120 pt grid under eight fields of mixed kinds, most with
    /// regions: a weak linear gravity everywhere, radial gravity (falloff 1) inside a central disc, a
    /// spring over a central square, a vortex over a ring, drag everywhere, an electric field outside a
    /// disc acting on the charged half of the items (charges ±1), a magnetic field over two crossing
    /// bands, and noise over a square clipped by a disc. The `fields` benchmark uses it.
    public static let fields = Scene(
        name: "fields", summary: "items under 8 fields of mixed kinds with regions (no collisions)",
        defaultItems: 100_000, defaultSeconds: 5
    ) { n in
        var d = SceneDocument()
        var g = grid("item", n, shape: .rectangle(width: 100, height: 100))
        g.material.charge = 1
        d.generators = [g]
        var negative = SceneItemBehavior()
        negative.targets = SceneTargets(items: stride(from: 2, to: n, by: 4).map { "item-\($0)" })
        negative.charge = -1
        d.behaviors = [SceneBehavior(id: "negative", .item(negative))]
        let charged = SceneTargets(items: stride(from: 0, to: n, by: 2).map { "item-\($0)" })
        let side = CGFloat(Int(Double(n).squareRoot().rounded(.up))) * 120
        func field(_ kind: FieldKind, _ targets: SceneTargets = .all, _ region: SceneRegion = .infinite,
                   _ configure: (inout FieldDescription) -> Void) -> SceneBehavior
        {
            var f = SceneField(kind: kind)
            f.targets = targets
            f.region = region
            f.description.position = CGPoint(x: side / 2, y: side / 2)
            configure(&f.description)
            return SceneBehavior(id: String(describing: kind), .field(f))
        }
        d.behaviors += [
            field(.linearGravity) { $0.strength = 0.1 },
            field(.radialGravity, .all, .disc(radius: side / 3)) { $0.falloff = 1; $0.strength = 50 },
            field(.spring, .all, .rectangle(width: side / 2, height: side / 2)) { $0.strength = 0.01 },
            field(.vortex, .all, .difference(.disc(radius: side * 0.45), .disc(radius: side / 6))) { $0.strength = 0.2 },
            field(.drag) { $0.strength = 0.5 },
            field(.electric, charged, .inverse(.disc(radius: side / 4))) { $0.strength = 0.5; $0.falloff = 2; $0.minimumRadius = 100 },
            field(.magnetic, .all, .union(.rectangle(width: side, height: side / 5), .rectangle(width: side / 5, height: side))) {
                $0.strength = 0.3
            },
            field(.noise, .all, .intersection(.rectangle(width: side * 0.8, height: side * 0.8), .disc(radius: side * 0.45))) {
                $0.strength = 0.05
                $0.smoothness = 0.7
                $0.animationSpeed = 0.5
            },
        ]
        return d
    }

    /// UIKit's "sticky corners", halved: a 400 × 800 pt box whose top and bottom halves each hold a spring
    /// field centred in the half. Items (100 × 100 pt, density 0.01, resistance 10, no rotation) collide
    /// with the box but not with each other. They start at rest in the top half's centre; even items are
    /// flicked down at 30 000 pt/s (hard enough to cross into the bottom half), odd items at 10 000 pt/s
    /// (not enough). Each comes to rest at the centre of the half it was thrown into.
    public static let stickyCorners = Scene(
        name: "sticky_corners", summary: "two spring fields over the halves of a box; flicked items stick",
        defaultItems: 2, defaultSeconds: 5
    ) { n in
        var d = SceneDocument()
        var material = SceneMaterial()
        material.density = 0.01
        material.resistance = 10
        material.allowsRotation = false
        d.items = SceneDocument.listed("item", .rectangle(width: 100, height: 100), Array(repeating: CGPoint(x: 200, y: 200), count: n),
                                       material: material)
        for k in d.items.indices { d.items[k].velocity = CGVector(dx: 0, dy: k % 2 == 0 ? 30_000 : 10_000) }
        let corners = [CGPoint(x: 0, y: 0), CGPoint(x: 400, y: 0), CGPoint(x: 400, y: 800), CGPoint(x: 0, y: 800)]
        d.behaviors = [SceneDocument.collision(mode: .boundaries, segments: (0..<4).map { ("wall-\($0)", corners[$0], corners[($0 + 1) % 4]) })]
        for (k, centreY) in [200.0, 600.0].enumerated() {
            var spring = SceneField(kind: .spring)
            spring.description.position = CGPoint(x: 200, y: centreY)
            spring.region = .rectangle(width: 400, height: 400)
            d.behaviors.append(SceneBehavior(id: "spring-\(k)", .field(spring)))
        }
        return d
    }
}
