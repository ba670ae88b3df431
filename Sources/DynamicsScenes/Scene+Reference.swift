// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// The reference benchmark scenes, at 100 pt per metre with y down: step 1/60 s, 4 substeps, friction 0.6,
/// elasticity 0, density 1, gravity 1000 pt/s², rest detection off.
extension Scene {
    /// `pile`: N squares of side 100 pt dropped into a walled container.
    public static let pile = Scene(
        name: "pile", summary: "pile: boxes of 100 pt dropped into a walled container",
        defaultItems: 1_000, defaultSeconds: 10, shape: "box", restDetection: false
    ) { n in pileDocument(n, circles: false) }

    /// `pile` with circles of diameter 100 pt.
    public static let pileCircles = Scene(
        name: "pile-circles", summary: "pile with circles of diameter 100 pt",
        defaultItems: 1_000, defaultSeconds: 10, shape: "circle", restDetection: false
    ) { n in pileDocument(n, circles: true) }

    /// `pyramid`: Box2D's large_pyramid, base 100 (5 050 boxes of 100 pt) on a floor segment. The item
    /// count picks the base b with b(b+1)/2 ≤ N.
    public static let pyramid = Scene(
        name: "pyramid", summary: "pyramid (Box2D large_pyramid): 5 050 boxes, base 100",
        defaultItems: 5_050, defaultSeconds: 500.0 / 60, shape: "box", restDetection: false
    ) { n in
        let base = Int(((8 * Double(n) + 1).squareRoot() - 1) / 2)
        var points: [CGPoint] = []
        for i in 0..<base {
            for j in i..<base {
                points.append(CGPoint(x: 50 * Double(i + 1) + 100 * Double(j - i) - 50 * Double(base),
                                      y: -(100 * Double(i) + 50)))
            }
        }
        return boxes(points, circles: false,
                     segments: [("floor", CGPoint(x: -60 * Double(base) - 1000, y: 0), CGPoint(x: 60 * Double(base) + 1000, y: 0))])
    }

    /// `many_pyramids`: Box2D v3's benchmark at 100 pt per metre, y down. Pyramids of base 10 (55 boxes of
    /// 100 pt each) stand 1 100 pt apart in rows 1 100 pt apart; each row stands on one segment as wide as the
    /// row (1 100 pt per pyramid). Box2D's 20 × 20 pyramids are the default, 22 000 boxes on 20 segments.
    /// The item count picks the number of pyramids (55 items each), in rows of ⌈√pyramids⌉.
    public static let manyPyramids = Scene(
        name: "many_pyramids", summary: "Box2D many_pyramids: 400 pyramids of base 10 (22 000 boxes)",
        defaultItems: 22_000, defaultSeconds: 200.0 / 60, shape: "box", restDetection: false
    ) { n in
        let pyramids = max(1, n / 55), columns = Int(Double(pyramids).squareRoot().rounded(.up))
        let rows = (pyramids + columns - 1) / columns, pitch = 1100.0, halfWidth = 0.5 * pitch * Double(columns)
        var points: [CGPoint] = []
        for p in 0..<pyramids {
            // The bottom-left box's centre, as Box2D's centerX and baseY place it.
            let left = -halfWidth + pitch * Double(p % columns) + 100, floor = -pitch * Double(p / columns)
            for i in 0..<10 {
                for j in i..<10 {
                    points.append(CGPoint(x: left + 50 * Double(i) + 100 * Double(j - i), y: floor - (100 * Double(i) + 50)))
                }
            }
        }
        let floors = (0..<rows).map { row in
            ("floor-\(row)", CGPoint(x: -halfWidth, y: -pitch * Double(row)), CGPoint(x: halfWidth, y: -pitch * Double(row)))
        }
        return boxes(points, circles: false, segments: floors)
    }

    /// `smash`: Box2D v3's benchmark at 100 pt per metre, y down, no gravity: an 800 × 800 pt box of density 8
    /// starts at x = −2 000 pt moving at 4 000 pt/s into a 120 × 80 grid of 40 pt boxes whose first column is at
    /// x = 3 000 pt, centred on y = 0 as Box2D's is. The grid starts at rest, as Box2D's starts asleep: the
    /// hammer wakes the boxes it strikes, and they wake the next. The item count scales the grid
    /// (columns : rows = 3 : 2).
    public static let smash = Scene(
        name: "smash", summary: "Box2D smash: a heavy box at 4 000 pt/s into a 120 × 80 grid of 40 pt boxes",
        defaultItems: 9_601, defaultSeconds: 300.0 / 60, shape: "box", restDetection: false
    ) { n in
        let rows = max(1, Int((Double(max(n - 1, 1)) / 1.5).squareRoot())), columns = max(1, (n - 1) / rows)
        var material = SceneMaterial()
        material.friction = 0.6
        // Box2D's row j is at y = (j − rows/2)·0.4 m, up; mirrored here, as y is down.
        let grid = (0..<(rows * columns)).map { k in
            CGPoint(x: 3000 + 40 * Double(k / rows), y: -40 * (Double(k % rows) - 0.5 * Double(rows)))
        }
        var d = SceneDocument()
        d.items = SceneDocument.listed("box", .rectangle(width: 40, height: 40), grid, material: material)
        for k in d.items.indices { d.items[k].resting = true } // Box2D creates its grid asleep
        var hammer = SceneItem(id: "hammer", shape: .rectangle(width: 800, height: 800), center: CGPoint(x: -2000, y: 0))
        hammer.material = material
        hammer.material.density = 8
        hammer.velocity = CGVector(dx: 4000, dy: 0)
        d.items.append(hammer)
        d.behaviors = [SceneDocument.collision()]
        return d
    }

    /// `scatter`: N boxes of 20, 60 and 100 pt at random positions (about one box per 200 × 200 pt), without
    /// gravity, drifting at random velocities of up to 300 pt/s on each axis. Boxes leave their fat boxes every
    /// step, so the broadphase finds every pair again each step: the scene times the whole broadphase.
    public static let scatter = Scene(
        name: "scatter", summary: "broadphase load: boxes of mixed sizes drifting at random, no gravity",
        defaultItems: 100_000, defaultSeconds: 1, shape: "box", restDetection: false
    ) { n in scatterDocument(n, giants: 0) }

    /// `scatter-giants`: `scatter` with 1 % of its boxes 3 000 pt wide, 30 times the largest of the others:
    /// the broadphase with a mix of sizes far apart.
    public static let scatterGiants = Scene(
        name: "scatter-giants", summary: "broadphase load: scatter with 1 % of the boxes 3 000 pt wide",
        defaultItems: 100_000, defaultSeconds: 1, shape: "box", restDetection: false
    ) { n in scatterDocument(n, giants: n / 100) }

    private static func scatterDocument(_ n: Int, giants: Int) -> SceneDocument {
        let side = Double(n).squareRoot() * 200, small = n - giants
        var state: UInt64 = 0x5EED
        func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var d = SceneDocument()
        for (size, count) in [(20.0, small / 3 + small % 3), (60.0, small / 3), (100.0, small / 3), (3000.0, giants)]
        where count > 0 {
            let points = (0..<count).map { _ in CGPoint(x: unit() * side, y: unit() * side) }
            var items = SceneDocument.listed("box\(Int(size))", .rectangle(width: size, height: size), points)
            for k in items.indices { items[k].velocity = CGVector(dx: 600 * unit() - 300, dy: 600 * unit() - 300) }
            d.items += items
        }
        d.behaviors = [SceneDocument.collision()]
        return d
    }

    private static func pileDocument(_ n: Int, circles: Bool) -> SceneDocument {
        let cols = Int((2 * Double(n).squareRoot()).rounded(.up))
        let rows = (n + cols - 1) / cols
        let x0 = -Double(cols - 1) * 60
        let points = (0..<n).map { i -> CGPoint in
            let jitter = 10 * Double((i * 7919) % 201 - 100) / 100
            return CGPoint(x: x0 + 120 * Double(i % cols) + jitter, y: -(100 + 120 * Double(i / cols)))
        }
        // The container: inner width cols·120 + 200 pt, walls rows·120 + 1000 pt high, floor at y = 0.
        let halfWidth = Double(cols) * 60 + 100, height = Double(rows) * 120 + 1000
        let corners = [CGPoint(x: -halfWidth, y: -height), CGPoint(x: -halfWidth, y: 0),
                       CGPoint(x: halfWidth, y: 0), CGPoint(x: halfWidth, y: -height)]
        return boxes(points, circles: circles, segments: [("left", corners[0], corners[1]), ("floor", corners[1], corners[2]),
                                                          ("right", corners[2], corners[3])])
    }

    /// Items of side (or diameter) 100 pt, friction 0.6, under gravity, colliding with each other and with
    /// the given segments.
    private static func boxes(_ points: [CGPoint], circles: Bool, segments: [(String, CGPoint, CGPoint)]) -> SceneDocument {
        var material = SceneMaterial()
        material.friction = 0.6
        var d = SceneDocument()
        d.items = SceneDocument.listed(circles ? "ball" : "box", circles ? .ellipse(width: 100, height: 100)
                                                                         : .rectangle(width: 100, height: 100),
                                       points, material: material)
        d.behaviors = [SceneDocument.gravity(), SceneDocument.collision(segments: segments)]
        return d
    }
}
