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

    /// `many_pyramids`: after Box2D v3's benchmark, 20 rows × 20 columns of pyramids of base 10 (55 boxes of
    /// 100 pt each), each on its own floor segment: 22 000 boxes. The spacing (1 400 pt between pyramids,
    /// 1 300 pt between rows) is ours. The item count picks the number of pyramids (55 items each).
    public static let manyPyramids = Scene(
        name: "many_pyramids", summary: "Box2D many_pyramids: 400 pyramids of base 10 (22 000 boxes)",
        defaultItems: 22_000, defaultSeconds: 200.0 / 60, shape: "box", restDetection: false
    ) { world, n throws(DynamicsError) in
        let pyramids = max(1, n / 55), side = Int(Double(pyramids).squareRoot().rounded(.up))
        var points: [CGPoint] = []
        for p in 0..<pyramids {
            let (ox, oy) = (Double(p % side) * 1400, Double(p / side) * 1300)
            for i in 0..<10 {
                for j in i..<10 {
                    points.append(CGPoint(x: ox + 50 * Double(i + 1) + 100 * Double(j - i) - 500, y: oy - (100 * Double(i) + 50)))
                }
            }
            try world.addBoundary(from: CGPoint(x: ox - 650, y: oy), to: CGPoint(x: ox + 650, y: oy))
        }
        _ = try boxes(world, points, circles: false)
    }

    /// `smash`: after Box2D v3's benchmark, an 800 × 800 pt box of density 8 at 4 000 pt/s into a 120 × 80 grid
    /// of 40 pt boxes, no gravity. The item count scales the grid (columns : rows = 3 : 2).
    public static let smash = Scene(
        name: "smash", summary: "Box2D smash: a heavy box at 4 000 pt/s into a 120 × 80 grid of 40 pt boxes",
        defaultItems: 9_601, defaultSeconds: 300.0 / 60, shape: "box", restDetection: false
    ) { world, n throws(DynamicsError) in
        let rows = max(1, Int((Double(max(n - 1, 1)) / 1.5).squareRoot())), columns = max(1, (n - 1) / rows)
        var small = ItemDescription(shape: .rectangle(width: 40, height: 40))
        small.friction = 0.6
        let grid = (0..<(rows * columns)).map { k in
            CGPoint(x: 20 + 40 * Double(k % columns), y: 20 + 40 * Double(k / columns) - 20 * Double(rows))
        }
        let ids = try world.createItems(small, at: grid)
        try world.addCollisionShape(.rectangle(width: 40, height: 40), to: ids)
        var big = ItemDescription(shape: .rectangle(width: 800, height: 800), density: 8)
        big.friction = 0.6
        let hammer = try world.createItems(big, at: [CGPoint(x: -1000, y: 0)])
        try world.addCollisionShape(.rectangle(width: 800, height: 800), to: hammer)
        try world.setVelocities([CGVector(dx: 4000, dy: 0)], for: hammer)
    }

    /// `scatter`: N boxes of 20…100 pt at random, non-overlapping-on-average positions (density about one box
    /// per 200 × 200 pt), still and without gravity: a step is almost only the broadphase.
    public static let scatter = Scene(
        name: "scatter", summary: "broadphase load: boxes of mixed sizes scattered at random, still",
        defaultItems: 100_000, defaultSeconds: 1, shape: "box", restDetection: false
    ) { world, n throws(DynamicsError) in
        let side = Double(n).squareRoot() * 200
        var state: UInt64 = 0x5EED
        func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        for size in [20.0, 60.0, 100.0] {
            let count = n / 3 + (size == 20 ? n % 3 : 0)
            let points = (0..<count).map { _ in CGPoint(x: unit() * side, y: unit() * side) }
            let ids = try world.createItems(ItemDescription(shape: .rectangle(width: size, height: size)), at: points)
            try world.addCollisionShape(.rectangle(width: size, height: size), to: ids)
        }
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
