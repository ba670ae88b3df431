import Dynamics
import Foundation

/// The reference scenes of BENCH-SCENES.md, at 100 pt per metre with y down: step 1/60 s, 4 substeps,
/// friction 0.6, elasticity 0, density 1, gravity 1000 pt/s², rest detection off.
extension Scene {
    /// `pile`: N squares of side 100 pt in a walled container (BENCH-SCENES.md).
    public static let pile = Scene(
        name: "pile", summary: "BENCH-SCENES pile: boxes of 100 pt dropped into a walled container",
        defaultItems: 1_000, defaultSeconds: 10, shape: "box", restDetection: false
    ) { world, n throws(DynamicsError) in try populatePile(world, n, circles: false) }

    /// `pile` with circles of diameter 100 pt.
    public static let pileCircles = Scene(
        name: "pile-circles", summary: "BENCH-SCENES pile with circles of diameter 100 pt",
        defaultItems: 1_000, defaultSeconds: 10, shape: "circle", restDetection: false
    ) { world, n throws(DynamicsError) in try populatePile(world, n, circles: true) }

    /// `pyramid`: Box2D's large_pyramid, base 100 (5 050 boxes of 100 pt) on a floor segment. The item
    /// count picks the base b with b(b+1)/2 ≤ N.
    public static let pyramid = Scene(
        name: "pyramid", summary: "BENCH-SCENES pyramid (Box2D large_pyramid): 5 050 boxes, base 100",
        defaultItems: 5_050, defaultSeconds: 500.0 / 60, shape: "box", restDetection: false
    ) { world, n throws(DynamicsError) in
        let base = Int(((8 * Double(n) + 1).squareRoot() - 1) / 2)
        var points: [CGPoint] = []
        for i in 0..<base {
            for j in i..<base {
                points.append(CGPoint(x: 50 * Double(i + 1) + 100 * Double(j - i) - 50 * Double(base),
                                      y: -(100 * Double(i) + 50)))
            }
        }
        let ids = try boxes(world, points, circles: false)
        _ = ids
        try world.addBoundary(from: CGPoint(x: -60 * Double(base) - 1000, y: 0),
                              to: CGPoint(x: 60 * Double(base) + 1000, y: 0))
    }

    private static func populatePile(_ world: DynamicWorld, _ n: Int, circles: Bool) throws(DynamicsError) {
        let cols = Int((2 * Double(n).squareRoot()).rounded(.up))
        let rows = (n + cols - 1) / cols
        let x0 = -Double(cols - 1) * 60
        let points = (0..<n).map { i -> CGPoint in
            let jitter = 10 * Double((i * 7919) % 201 - 100) / 100
            return CGPoint(x: x0 + 120 * Double(i % cols) + jitter, y: -(100 + 120 * Double(i / cols)))
        }
        _ = try boxes(world, points, circles: circles)
        // The container: inner width cols·120 + 200 pt, walls rows·120 + 1000 pt high, floor at y = 0.
        let halfWidth = Double(cols) * 60 + 100, height = Double(rows) * 120 + 1000
        let corners = [CGPoint(x: -halfWidth, y: -height), CGPoint(x: -halfWidth, y: 0),
                       CGPoint(x: halfWidth, y: 0), CGPoint(x: halfWidth, y: -height)]
        for k in 0..<3 { try world.addBoundary(from: corners[k], to: corners[k + 1]) }
    }

    /// Items of side (or diameter) 100 pt, friction 0.6, under gravity, each with its collision shape.
    private static func boxes(_ world: DynamicWorld, _ points: [CGPoint], circles: Bool) throws(DynamicsError)
        -> [ItemID]
    {
        var description = ItemDescription(shape: circles ? .ellipse(width: 100, height: 100)
                                                         : .rectangle(width: 100, height: 100))
        description.friction = 0.6
        let ids = try world.createItems(description, at: points)
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: ids)
        try world.addCollisionShape(circles ? .circle(radius: 50) : .rectangle(width: 100, height: 100), to: ids)
        return ids
    }
}
