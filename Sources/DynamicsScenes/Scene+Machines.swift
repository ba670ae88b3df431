// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// Box2D v3's benchmark scenes that need more than UIKit Dynamics has (motors, kinematic items, compound items
/// of convex polygons), at 100 pt per metre with y down (Box2D's y up is mirrored, so its counterclockwise turns are
/// clockwise here: negative angular speeds). Box2D's defaults apply where its scene sets nothing: friction 0.6,
/// elasticity 0, density 1, gravity 1000 pt/s².
extension Scene {
    /// `tumbler` (Box2D v3's benchmark): a square drum of four 100 × 2 000 pt walls around (0, −1 000), one item
    /// of density 50, pinned to the world at its centre with a motor turning it at 25°/s (at most 10¹⁰ N·pt, Box2D's
    /// 10⁸ N·m), and inside it a 45 × 45 grid of 25 pt boxes at a 40 pt pitch. The item count picks the grid:
    /// ⌊√N⌋ boxes a side (2 025 by default), plus the drum.
    public static let tumbler = Scene(
        name: "tumbler", summary: "Box2D tumbler: a motorised square drum turning 2 025 small boxes",
        defaultItems: 2_025, defaultSeconds: 750.0 / 60, shape: "box", restDetection: false
    ) { n in
        let side = max(1, Int(Double(n).squareRoot())), centre = CGPoint(x: 0, y: -1000)
        var material = SceneMaterial()
        material.friction = 0.6
        var drumMaterial = material
        drumMaterial.density = 50
        let walls: [SceneShapePart] = [
            SceneShapePart(shape: .rectangle(width: 100, height: 2000), offset: CGPoint(x: 1000, y: 0)),
            SceneShapePart(shape: .rectangle(width: 100, height: 2000), offset: CGPoint(x: -1000, y: 0)),
            SceneShapePart(shape: .rectangle(width: 2000, height: 100), offset: CGPoint(x: 0, y: -1000)),
            SceneShapePart(shape: .rectangle(width: 2000, height: 100), offset: CGPoint(x: 0, y: 1000)),
        ]
        var drum = SceneItem(id: "drum", shape: .group(walls), center: centre)
        drum.material = drumMaterial
        // Box2D's row i, column j: (−0.2·side + 0.4·j, −0.2·side + 10 + 0.4·i) m, mirrored.
        let boxes = (0..<(side * side)).map { k in
            CGPoint(x: -20 * Double(side) + 40 * Double(k % side), y: 20 * Double(side) - 1000 - 40 * Double(k / side))
        }
        var d = SceneDocument()
        d.items = [drum] + SceneDocument.listed("box", .rectangle(width: 25, height: 25), boxes, material: material)
        let motor = AttachmentMotor(speed: -25 * .pi / 180, maximumTorque: 1e10)
        d.behaviors = [
            SceneDocument.gravity(),
            SceneBehavior(id: "axle", .attachment(SceneAttachment(item: "drum", anchor: centre, kind: .pin(motor: motor)))),
            SceneDocument.collision(),
        ]
        return d
    }

    /// `compounds` (Box2D v3's benchmark): 20 columns of items 200 pt apart, 150 rows 225 pt apart from 557.5 pt up,
    /// each item a compound of two triangles (the hulls of (−100, 0), (50, −100), (0, −200) pt and of its mirror
    /// image about the item's vertical axis), alternately 25 pt right and left of its column; friction 0.5. They
    /// fall into a pit of anchored boxes: a floor of 81 boxes 110 × 100 pt from x = −4 000 to 4 000 pt and walls
    /// of 100 boxes 100 × 110 pt at x = ±4 000 pt, above a boundary segment 8 000 pt below the floor. The item
    /// count picks the rows (⌈N / 20⌉; 3 000 items by default), plus the pit's 281 boxes.
    public static let compounds = Scene(
        name: "compounds", summary: "Box2D compounds: 3 000 items of two triangles poured into a pit",
        defaultItems: 3_000, defaultSeconds: 500.0 / 60, shape: "compound", restDetection: false
    ) { n in
        let columns = 20, rows = max(1, (n + columns - 1) / columns)
        var d = SceneDocument()
        d.items = pit(floor: 81, walls: 100, at: 4000)
        // Each triangle centred on its centroid, (∓50/3, −100) pt from the item's origin.
        let left = [CGPoint(x: -250.0 / 3, y: 100), CGPoint(x: 200.0 / 3, y: 0), CGPoint(x: 50.0 / 3, y: -100)]
        let right = left.map { CGPoint(x: -$0.x, y: $0.y) }
        let shape = SceneShape.group([SceneShapePart(shape: .polygon(left), offset: CGPoint(x: -50.0 / 3, y: -100)),
                                      SceneShapePart(shape: .polygon(right), offset: CGPoint(x: 50.0 / 3, y: -100))])
        var material = SceneMaterial()
        material.friction = 0.5
        // Box2D's item k (column i, row j): x = 2·i − 19 ± 0.25 m (the sign alternating item by item),
        // y = 2.25·j + 5.575 m, mirrored.
        let centres = (0..<(columns * rows)).map { k in
            let i = k / rows, j = k % rows, side = k % 2 == 0 ? 25.0 : -25.0
            return CGPoint(x: 200 * Double(i) - 1900 + side, y: -(225 * Double(j) + 557.5))
        }
        d.items += SceneDocument.listed("compound", shape, centres, material: material)
        d.behaviors = [SceneDocument.gravity(),
                       SceneDocument.collision(segments: [("deep", CGPoint(x: -80_000, y: 8000), CGPoint(x: 80_000, y: 8000))])]
        return d
    }

    /// `washer` (Box2D v3's benchmark): a kinematic drum turning at 25°/s about (0, −1 000) (and drifting at
    /// (0.1, 0.2) pt/s, as Box2D's does), one item of 40 convex pieces: 36 quadrilaterals between radii 1 600 and
    /// 1 800 pt, each the hull of four points 10° apart (each end turned 1° outward, so neighbours overlap), and 4
    /// paddles between radii 1 400 and 1 600 pt every 90°; inside it a 90 × 90 grid of 20 pt squares at a 21 pt
    /// pitch. The item count picks the grid: ⌊√N⌋ squares a side (8 100 by default), plus the drum.
    public static let washer = Scene(
        name: "washer", summary: "Box2D washer: a kinematic drum of 40 pieces tumbling 8 100 small squares",
        defaultItems: 8_100, defaultSeconds: 500.0 / 60, shape: "box", restDetection: false
    ) { n in
        let side = max(1, Int(Double(n).squareRoot())), step = Double.pi / 18
        var material = SceneMaterial()
        material.friction = 0.6
        // Box2D's pieces in its frame (y up), as points of ours (y down).
        func point(_ r: Double, _ angle: Double) -> CGPoint { CGPoint(x: 100 * r * cos(angle), y: -100 * r * sin(angle)) }
        var parts: [SceneShapePart] = []
        for i in 0..<36 {
            let a1 = step * Double(i), a2 = i == 35 ? 0 : step * Double(i + 1), turn = 0.1 * step
            parts.append(centredPart([point(16, a1 - turn), point(18, a1 - turn), point(16, (i == 35 ? 2 * .pi : a2) + turn),
                                      point(18, (i == 35 ? 2 * .pi : a2) + turn)]))
            if i % 9 == 0 {
                parts.append(centredPart([point(14, a1), point(16, a1), point(14, a1 + step), point(16, a1 + step)]))
            }
        }
        var drumMaterial = material
        drumMaterial.kinematic = true
        var drum = SceneItem(id: "drum", shape: .group(parts), center: CGPoint(x: 0, y: -1000))
        drum.material = drumMaterial
        drum.velocity = CGVector(dx: 0.1, dy: 0.2)
        drum.angularVelocity = -25 * .pi / 180
        // Box2D's row i, column j: (−0.11·side + 0.21·j, −0.11·side + 10 + 0.21·i) m, mirrored.
        let squares = (0..<(side * side)).map { k in
            CGPoint(x: -11 * Double(side) + 21 * Double(k % side), y: 11 * Double(side) - 1000 - 21 * Double(k / side))
        }
        var d = SceneDocument()
        d.items = [drum] + SceneDocument.listed("square", .rectangle(width: 20, height: 20), squares, material: material)
        d.behaviors = [SceneDocument.gravity(), SceneDocument.collision()]
        return d
    }

    /// `junkyard` (Box2D v3's benchmark): 200 columns of pentagons 75 pt apart, 40 rows 100 pt apart from 1 500 pt
    /// up, each the hull of five points at 25 pt from its origin on a golden-angle spiral, alternately 10 pt left
    /// and right of its column; a pit of anchored boxes (a floor of 161 boxes 110 × 100 pt from x = −8 000 to
    /// 8 000 pt, walls of 50 boxes 100 × 110 pt at x = ±8 000 pt); and a kinematic 400 × 800 pt pusher standing on
    /// the floor, which the timeline drives before every step n to x = 6 000 pt · sin(0.2 · n / 60) (Box2D's
    /// target transform), for the scene's 800 steps; after them it stops. The item count picks the rows
    /// (⌈N / 200⌉; 8 000 pentagons by default), plus the pit's 261 boxes and the pusher.
    public static let junkyard = Scene(
        name: "junkyard", summary: "Box2D junkyard: 8 000 pentagons in a pit, shoved by a kinematic pusher",
        defaultItems: 8_000, defaultSeconds: 800.0 / 60, shape: "polygon", restDetection: false
    ) { n in
        let columns = 200, rows = max(1, (n + columns - 1) / columns), steps = 800
        var d = SceneDocument()
        d.items = pit(floor: 161, walls: 50, at: 8000)
        // Box2D's points: radius 0.25 m at angles φ·i, φ = π(√5 − 1), mirrored.
        let phi = Double.pi * (5.0.squareRoot() - 1)
        let pentagon = SceneShape.group([centredPart((0..<5).map { i in
            CGPoint(x: 25 * cos(phi * Double(i)), y: -25 * sin(phi * Double(i)))
        })])
        var material = SceneMaterial()
        material.friction = 0.6
        // Box2D's item k (column i, row j) at (1.5·(2i − 200)·0.25 ± 0.1, 15 + j) m, the sign alternating from −.
        let origins = (0..<(columns * rows)).map { k in
            let i = k / rows, j = k % rows, shift = k % 2 == 0 ? -10.0 : 10.0
            return CGPoint(x: 75 * Double(i) - 7500 + shift, y: -100 * (15 + Double(j)))
        }
        d.items += SceneDocument.listed("pentagon", pentagon, origins, material: material)
        var pusher = SceneItem(id: "pusher", shape: .rectangle(width: 400, height: 800), center: CGPoint(x: 0, y: -400))
        pusher.material = material
        pusher.material.kinematic = true
        d.items.append(pusher)
        d.behaviors = [SceneDocument.gravity(), SceneDocument.collision()]
        d.timeline = (0..<steps).map { k in
            SceneEvent(time: Double(k) / 60, .drive(item: "pusher", center: CGPoint(x: 6000 * sin(0.2 * Double(k) / 60), y: -400),
                                                   angle: 0))
        }
        d.timeline.append(SceneEvent(time: Double(steps) / 60, .velocity(targets: SceneTargets(items: ["pusher"]),
                                                                           linear: CGVector(dx: 0, dy: 0), angular: 0)))
        return d
    }

    /// `spinner` (Box2D v3's benchmark): a closed path of 360 points on a circle of radius 4 000 pt about
    /// (0, −3 200) (friction 0.1); a rounded bar (120 × 4 040 pt, a 80 × 4 000 pt core with corners of 20 pt,
    /// friction 0) pinned to the world at its centre (0, −1 200) with a motor at −5 rad/s (Box2D's 5 rad/s
    /// counterclockwise with y up) and no torque limit; and 6 076 items in rows of 92 at a 50 pt pitch from
    /// (−2 300, −200), cycling a capsule (100 × 50 pt), a circle (radius 35 pt) and a 70 pt square, density 0.25,
    /// friction 0.1, elasticity 0.1, tagged `piece`. They start overlapping, as Box2D's do. The bar's ends reach
    /// past the ring, which it does not meet (as in Box2D, whose joint keeps the bar and the ground, holding the
    /// ring, apart). The item count picks how many (6 076 by default), plus the bar.
    public static let spinner = Scene(
        name: "spinner", summary: "Box2D spinner: a motorised rounded bar stirring 6 076 capsules, circles and squares",
        defaultItems: 6_076, defaultSeconds: 500.0 / 60, shape: "mixed", restDetection: false
    ) { n in
        let ring = (0..<360).map { k -> CGPoint in  // Box2D's points from (40, 0) m turning clockwise (y up), mirrored
            let a = -2 * Double.pi * Double(k) / 360
            return CGPoint(x: 4000 * cos(a), y: -(4000 * sin(a) + 3200))
        }
        var barMaterial = SceneMaterial()
        barMaterial.friction = 0
        var bar = SceneItem(id: "bar", shape: .roundedRectangle(width: 120, height: 4040, radius: 20), center: CGPoint(x: 0, y: -1200))
        bar.material = barMaterial
        var material = SceneMaterial()
        material.density = 0.25
        material.friction = 0.1
        material.elasticity = 0.1
        let shapes: [SceneShape] = [.capsule(width: 100, height: 50), .ellipse(width: 70, height: 70), .rectangle(width: 70, height: 70)]
        var d = SceneDocument()
        d.items = [bar] + (0..<max(1, n)).map { k in
            var item = SceneItem(id: "piece-\(k)", shape: shapes[k % 3], center: CGPoint(x: -2300 + 50 * Double(k % 92), y: -200 - 50 * Double(k / 92)))
            item.material = material
            item.tags = ["piece"]
            return item
        }
        // The pieces meet the ring and each other; the bar meets the pieces only: its ends reach 20 pt past the
        // ring, which Box2D's bar passes through, as a joint keeps its bodies (the bar and the ground, which
        // holds the ring) from colliding.
        var ringCollision = SceneCollision()
        ringCollision.targets = SceneTargets(tags: ["piece"])
        ringCollision.boundaries = [.init(id: "ring", shape: .path(points: ring, closed: true))]
        var stir = SceneCollision()
        stir.targets = SceneTargets(items: ["bar"], tags: ["piece"])
        stir.mode = .items
        let motor = AttachmentMotor(speed: -5)
        d.behaviors = [SceneDocument.gravity(), SceneBehavior(id: "collision", .collision(ringCollision)),
                       SceneBehavior(id: "stir", .collision(stir)),
                       SceneBehavior(id: "axle", .attachment(SceneAttachment(item: "bar", anchor: CGPoint(x: 0, y: -1200),
                                                                             kind: .pin(motor: motor))))]
        return d
    }

    /// Box2D's pit of static boxes, as anchored items (friction 0.6): a floor of `floor` boxes 110 × 100 pt at
    /// x = −`half` + 100·k, y = 0, and on each side x = ∓`half` a wall of `walls` boxes 100 × 110 pt at y = −100·(k + 1).
    static func pit(floor: Int, walls: Int, at half: Double) -> [SceneItem] {
        var ground = SceneMaterial()
        ground.friction = 0.6
        ground.anchored = true
        var items = SceneDocument.listed("floor", .rectangle(width: 110, height: 100),
                                         (0..<floor).map { CGPoint(x: -half + 100 * Double($0), y: 0) }, material: ground)
        for x in [-half, half] {
            items += SceneDocument.listed(x < 0 ? "left-wall" : "right-wall", .rectangle(width: 100, height: 110),
                                          (0..<walls).map { CGPoint(x: x, y: -100 * Double($0 + 1)) }, material: ground)
        }
        return items
    }

    /// A group's part: the convex hull of `points` (pt, in the item's frame), placed at its centroid.
    static func centredPart(_ points: [CGPoint]) -> SceneShapePart {
        guard case .polygon(let corners) = try? CollisionShape.hull(of: points) else { preconditionFailure("a flat hull: \(points)") }
        var area = 0.0, cx = 0.0, cy = 0.0
        for k in corners.indices {
            let p = corners[k], q = corners[(k + 1) % corners.count], cross = p.x * q.y - q.x * p.y
            area += cross
            cx += (p.x + q.x) * cross
            cy += (p.y + q.y) * cross
        }
        let c = CGPoint(x: cx / (3 * area), y: cy / (3 * area))
        return SceneShapePart(shape: .polygon(corners.map { CGPoint(x: $0.x - c.x, y: $0.y - c.y) }), offset: c)
    }
}
