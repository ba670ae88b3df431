// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension Scene {
    /// `rain` (Box2D v3's benchmark): five rows of 501 anchored 50 pt boxes (friction 0.6), 50 pt apart from
    /// x = −12 500 pt, the rows 4 500 pt apart from y = 0 up; and groups of five ragdolls (the template
    /// `group`, Box2D's human 50 pt apart, ragdoll i in exclusion group i + 1 as Box2D's group
    /// index −(i + 1)) that the timeline makes before every 8th step from the first: one group per row, in
    /// columns 625 pt apart from x = −12 187.5 pt, 4 000 pt above its row. Once 40 columns exist each further
    /// column makes the oldest again in its place (a repeating `make` with a cycle of 40), as Box2D destroys and
    /// recreates it. The item count picks the columns, 275 ragdoll items each (⌊N / 275⌋, 1…40; 40 and 11 000
    /// items by default), plus the 2 505 boxes; rest detection stays on, as Box2D's sleeping does.
    ///
    /// Where it differs from Box2D's: an item has one material, so a lower leg's foot takes the leg's friction
    /// (0.2, Box2D's foot 0.05); an item's shapes share its collision groups, so feet meet other ragdolls' feet
    /// and legs (Box2D's feet meet only the ground); and items rest below the world's threshold, where Box2D's
    /// ragdolls sleep below 10 pt/s, twice its default. Each adds contacts or awake items to ours.
    public static let rain = Scene(
        name: "rain", summary: "Box2D rain: columns of ragdolls made and made again over five rows of boxes",
        defaultItems: 11_000, defaultSeconds: 1000.0 / 60, shape: "mixed", restDetection: true
    ) { n in
        let columns = min(40, max(1, n / 275)), gridCount = 500, rows = 5
        var ground = SceneMaterial()
        ground.friction = 0.6
        ground.anchored = true
        var d = SceneDocument()
        for row in 0..<rows {
            let centres = (0...gridCount).map { j in CGPoint(x: -12_500 + 50 * Double(j), y: -4500 * Double(row)) }
            d.items += SceneDocument.listed("ground\(row)", .rectangle(width: 50, height: 50), centres, material: ground)
        }
        var group = SceneTemplate(id: "group", items: [])
        for i in 0..<5 {
            let human = ragdoll(at: CGPoint(x: 50 * Double(i), y: 0), exclusionGroup: i + 1)
            group.items += human.items.map { item in
                var item = item
                item.id = "h\(i)-\(item.id)"
                return item
            }
            group.attachments += human.attachments.map { a in
                var a = a
                a.item = "h\(i)-\(a.item)"
                a.other = a.other.map { "h\(i)-\($0)" }
                return a
            }
        }
        group.tags = ["ragdoll"]
        d.templates = [group]
        d.behaviors = [SceneDocument.gravity(), SceneDocument.collision()]
        // Box2D's group (row, column) at (−span/2 + span/40 · (column + 0.5), 40 + 45·row) m, mirrored.
        d.timeline = (0..<rows).map { row in
            var event = SceneEvent(time: 0, .make(template: "group", instance: "row\(row)",
                                                  origin: CGPoint(x: -12_187.5, y: -4000 - 4500 * Double(row))))
            event.repeating = (8.0 / 60, nil)
            event.repeatShift = CGVector(dx: 625, dy: 0)
            event.repeatCycle = columns
            return event
        }
        return d
    }

    /// Box2D's human (`shared/human.c`, scale 1) standing on `origin` (its feet's level, pt): eleven capsule bones
    /// (hip, torso, head, upper and lower legs, upper and lower arms; friction 0.2; head and lower arms with
    /// resistance 0.1/s), each lower leg with a rounded foot, joined by pins at Box2D's pivots with its angle ranges
    /// (mirrored: Box2D's [a, b] is [−b, −a] here, and a lower arm's frame turned by π/4 moves its range and rest
    /// angle by −π/4), friction torques of 5 N·pt times Box2D's scale per bone (its 0.05 N·m motor friction), and
    /// angular springs of 5 Hz with damping ratio 0.5. Its items are named as the bones.
    static func ragdoll(at origin: CGPoint, exclusionGroup: Int) -> (items: [SceneItem], attachments: [SceneAttachment]) {
        var material = SceneMaterial()
        material.friction = 0.2
        var items: [SceneItem] = []
        // A vertical capsule between Box2D's segment ends y0…y1 of radius r (m, y up, from the body's origin at y).
        func bone(_ id: String, y: Double, _ y0: Double, _ y1: Double, _ r: Double, damped: Bool = false) {
            var item = SceneItem(id: id, shape: .capsule(width: 200 * r, height: 100 * (y1 - y0 + 2 * r)),
                                 center: CGPoint(x: origin.x, y: origin.y - 100 * (y + (y0 + y1) / 2)))
            item.material = material
            if damped { item.material.resistance = 0.1 }
            item.exclusionGroup = exclusionGroup
            items.append(item)
        }
        bone("hip", y: 0.95, -0.02, 0.02, 0.095)
        bone("torso", y: 1.2, -0.135, 0.135, 0.09)
        bone("head", y: 1.475, -0.038, 0.039, 0.075, damped: true)
        for side in ["left", "right"] {
            bone("upper-\(side)-leg", y: 0.775, -0.125, 0.125, 0.06)
            // The lower leg: its capsule (−0.155…0.125 m, radius 0.045) and the foot, the hull of Box2D's four
            // points rounded by 0.015 m, as one item placed by its centre of mass.
            var foot = centredPart([CGPoint(x: -3, y: 18.5), CGPoint(x: 11, y: 18.5), CGPoint(x: 11, y: 16), CGPoint(x: -3, y: 14)])
            if case .polygon(let corners) = foot.shape { foot.shape = .roundedPolygon(corners, radius: 1.5) }
            let parts = [SceneShapePart(shape: .capsule(width: 9, height: 37), offset: CGPoint(x: 0, y: 1.5)), foot]
            var leg = SceneItem(id: "lower-\(side)-leg", shape: .group(parts), center: CGPoint(x: origin.x, y: origin.y - 47.5))
            leg.material = material
            leg.exclusionGroup = exclusionGroup
            items.append(leg)
            bone("upper-\(side)-arm", y: 1.225, -0.125, 0.125, 0.035)
            bone("lower-\(side)-arm", y: 0.975, -0.125, 0.125, 0.03, damped: true)
        }
        // A pin of `item` to `parent` at Box2D's pivot height (m), its range [lo, hi] (turns of π, Box2D's) and
        // friction scale; `frame` is Box2D's turn of the parent's frame (turns of π).
        func pin(_ item: String, to parent: String, at y: Double, _ lo: Double, _ hi: Double, scale: Double,
                 frame: Double = 0) -> SceneAttachment
        {
            let range = FloatRange(minimum: -(hi + frame) * .pi, maximum: -(lo + frame) * .pi)
            let spring = AngularSpring(frequency: 5, damping: 0.5, restAngle: -frame * .pi)
            return SceneAttachment(item: item, other: parent, anchor: CGPoint(x: origin.x, y: origin.y - 100 * y),
                                   kind: .pin(range: range, frictionTorque: 5 * scale, spring: spring))
        }
        var attachments = [
            pin("torso", to: "hip", at: 1.0, -0.25, 0, scale: 0.5),
            pin("head", to: "torso", at: 1.4, -0.3, 0.1, scale: 0.25),
        ]
        for side in ["left", "right"] {
            attachments += [
                pin("upper-\(side)-leg", to: "hip", at: 0.9, -0.05, 0.4, scale: 1),
                pin("lower-\(side)-leg", to: "upper-\(side)-leg", at: 0.625, -0.5, -0.02, scale: 0.5),
                pin("upper-\(side)-arm", to: "torso", at: 1.35, -0.1, 0.8, scale: 0.5),
                pin("lower-\(side)-arm", to: "upper-\(side)-arm", at: 1.1, -0.2, 0.3, scale: 0.1, frame: 0.25),
            ]
        }
        return (items, attachments)
    }
}
