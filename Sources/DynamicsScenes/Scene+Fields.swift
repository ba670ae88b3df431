import Dynamics
import Foundation

extension Scene {
    /// Fields: `n` items (no collisions) on the 120 pt grid under eight fields of mixed kinds, most with
    /// regions: a weak linear gravity everywhere, radial gravity (falloff 1) inside a central disc, a
    /// spring over a central square, a vortex over a ring, drag everywhere, an electric field outside a
    /// disc acting on the charged half of the items (charges ±1), a magnetic field over two crossing
    /// bands, and noise over a square clipped by a disc. The `fields` benchmark and the 60 steps/s target
    /// of issue 5 use it.
    public static let fields = Scene(
        name: "fields", summary: "items under 8 fields of mixed kinds with regions (no collisions)",
        defaultItems: 100_000, defaultSeconds: 5
    ) { world, n throws(DynamicsError) in
        var item = ItemDescription()
        item.charge = 1
        let points = grid(n)
        let ids = try world.createItems(item, at: points)
        let charged = stride(from: 0, to: n, by: 2).map { ids[$0] }
        try world.setMaterial(elasticity: 0, friction: 0, charge: -1, for: stride(from: 2, to: n, by: 4).map { ids[$0] })
        let side = CGFloat(Int(Double(n).squareRoot().rounded(.up))) * 120
        let centre = CGPoint(x: side / 2, y: side / 2)
        func field(_ kind: FieldKind, _ configure: (inout FieldDescription) -> Void) -> FieldDescription {
            var d = FieldDescription(kind: kind)
            d.position = centre
            configure(&d)
            return d
        }
        let fields: [(FieldDescription, [ItemID])] = [
            (field(.linearGravity) { $0.strength = 0.1 }, ids),
            (field(.radialGravity) { $0.falloff = 1; $0.strength = 50; $0.region = Region(radius: side / 3) }, ids),
            (field(.spring) { $0.strength = 0.01; $0.region = Region(size: CGSize(width: side / 2, height: side / 2)) },
             ids),
            (field(.vortex) {
                $0.strength = 0.2
                $0.region = Region(radius: side * 0.45).byDifference(from: Region(radius: side / 6))
            }, ids),
            (field(.drag) { $0.strength = 0.5 }, ids),
            (field(.electric) { $0.strength = 0.5; $0.falloff = 2; $0.minimumRadius = 100
                $0.region = Region(radius: side / 4).inverse() }, charged),
            (field(.magnetic) {
                $0.strength = 0.3
                $0.region = Region(size: CGSize(width: side, height: side / 5))
                    .byUnion(with: Region(size: CGSize(width: side / 5, height: side)))
            }, ids),
            (field(.noise) {
                $0.strength = 0.05
                $0.smoothness = 0.7
                $0.animationSpeed = 0.5
                $0.region = Region(size: CGSize(width: side * 0.8, height: side * 0.8))
                    .byIntersection(with: Region(radius: side * 0.45))
            }, ids),
        ]
        for (description, members) in fields { try world.addField(description, for: members) }
    }

    /// UIKit's "sticky corners", halved: a 400 × 800 pt box whose top and bottom halves each hold a spring
    /// field centred in the half. Items (100 × 100 pt, density 0.01, resistance 10, no rotation) collide
    /// with the box but not with each other. They start at rest in the top half's centre; even items are
    /// flicked down at 30 000 pt/s (hard enough to cross into the bottom half), odd items at 10 000 pt/s
    /// (not enough). Each comes to rest at the centre of the half it was thrown into.
    public static let stickyCorners = Scene(
        name: "sticky_corners", summary: "two spring fields over the halves of a box; flicked items stick",
        defaultItems: 2, defaultSeconds: 5
    ) { world, n throws(DynamicsError) in
        var item = ItemDescription()
        item.density = 0.01
        item.resistance = 10
        item.allowsRotation = false
        let ids = try world.createItems(item, at: Array(repeating: CGPoint(x: 200, y: 200), count: n))
        try world.setVelocities((0..<n).map { CGVector(dx: 0, dy: $0 % 2 == 0 ? 30_000 : 10_000) }, for: ids)
        try world.addCollisionShape(.rectangle(width: 100, height: 100), to: ids)
        try world.setCollisionFilter(CollisionFilter(itemGroups: 0, boundaryGroups: .max), for: ids)
        let corners = [CGPoint(x: 0, y: 0), CGPoint(x: 400, y: 0), CGPoint(x: 400, y: 800), CGPoint(x: 0, y: 800)]
        for k in 0..<4 { try world.addBoundary(from: corners[k], to: corners[(k + 1) % 4]) }
        for centreY in [200.0, 600.0] {
            var spring = FieldDescription(kind: .spring)
            spring.position = CGPoint(x: 200, y: centreY)
            spring.region = Region(size: CGSize(width: 400, height: 400))
            try world.addField(spring, for: ids)
        }
    }
}
