// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// Box2D v3's benchmark scenes that need more than UIKit Dynamics has (motors, compound items of convex
/// polygons), at 100 pt per metre with y down (Box2D's y up is mirrored, so its counterclockwise turns are
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
        var ground = SceneMaterial()
        ground.friction = 0.6
        ground.anchored = true
        var d = SceneDocument()
        d.items = SceneDocument.listed("floor", .rectangle(width: 110, height: 100),
                                       (0..<81).map { CGPoint(x: -4000 + 100 * Double($0), y: 0) }, material: ground)
        for x in [-4000.0, 4000] {
            d.items += SceneDocument.listed(x < 0 ? "left-wall" : "right-wall", .rectangle(width: 100, height: 110),
                                            (0..<100).map { CGPoint(x: x, y: -100 * Double($0 + 1)) }, material: ground)
        }
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
}
