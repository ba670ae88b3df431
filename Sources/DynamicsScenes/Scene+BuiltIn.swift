import Dynamics
import Foundation

extension Scene {
    /// Every built-in scene, in the order `dynamics scenes` lists them.
    public static let builtIn: [Scene] = [
        .default, .integration, .pile, .pileCircles, .pyramid, .manyPyramids, .smash, .scatter, .scatterGiants, .jointGrid, .chain,
        .bridge, .fields, .stickyCorners,
    ]

    /// The built-in scene called `name`, if any.
    public static func named(_ name: String) -> Scene? { builtIn.first { $0.name == name } }

    /// The default scene: a grid of 100 × 100 pt boxes at 120 pt pitch under gravity, colliding with each
    /// other and with a box-shaped container around the grid. Every third item has resistance 1/s, every
    /// fifth a 2 N push at 30 pt off-centre (so it spins), and every seventh a snap spring to a point
    /// 150 pt above its start (it sags under gravity and comes to rest). Attachments and fields join it as
    /// they land.
    public static let `default` = Scene(
        name: "default", summary: "boxes under gravity with resistance, off-centre pushes and snap springs",
        defaultItems: 10_000, defaultSeconds: 10
    ) { world, n throws(DynamicsError) in
        let ids = try world.createItems(ItemDescription(), at: grid(n))
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: ids)
        try world.setResistance(1, angular: 1, for: stride(from: 0, to: n, by: 3).map { ids[$0] })
        let pushed = stride(from: 1, to: n, by: 5).map { ids[$0] }
        let f: Float = 2, offset: Float = 30  // torqueCross = cross((0, 30), (2, 0)) = −60 N·pt
        try world.setForces(x: Array(repeating: f, count: pushed.count), y: Array(repeating: 0, count: pushed.count),
                            torqueCross: Array(repeating: -offset * f, count: pushed.count),
                            torqueDot: Array(repeating: 0, count: pushed.count), for: pushed)
        for k in stride(from: 2, to: n, by: 7) {
            let p = world.pose(of: ids[k]).center
            try world.setSnap(to: CGPoint(x: p.x, y: p.y - 150), dampingRatio: 0.525, for: [ids[k]])
        }
        try world.addCollisionShape(.rectangle(width: 100, height: 100), to: ids)
        let side = Double(Int(Double(n).squareRoot().rounded(.up))) * 120
        let corners = [CGPoint(x: -200, y: -400), CGPoint(x: -200, y: side + 200),
                       CGPoint(x: side + 80, y: side + 200), CGPoint(x: side + 80, y: -400)]
        for k in 0..<4 { try world.addBoundary(from: corners[k], to: corners[(k + 1) % 4]) }
    }

    /// Integration only: every item has gravity, resistance 0.5/s and a 1 N push through its centre.
    /// The benchmark of one integration step uses it.
    public static let integration = Scene(
        name: "integration", summary: "integration only: gravity, resistance and a centred push on every item",
        defaultItems: 100_000, defaultSeconds: 5
    ) { world, n throws(DynamicsError) in
        let ids = try world.createItems(ItemDescription(), at: grid(n))
        try world.setGravity(CGVector(dx: 0, dy: 1000), for: ids)
        try world.setResistance(0.5, angular: 0.5, for: ids)
        try world.setForce(CGVector(dx: 1, dy: 0), for: ids)
    }

    /// `n` points on a square-ish grid of 120 pt pitch, row by row, starting at the origin.
    static func grid(_ n: Int) -> [CGPoint] {
        let columns = max(1, Int(Double(n).squareRoot().rounded(.up)))
        return (0..<n).map { CGPoint(x: Double($0 % columns) * 120, y: Double($0 / columns) * 120) }
    }
}
