// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Capsules, rounded rectangles and rounded polygons in scene files: read, written back, resting where their
/// outlines say, and refused where their sizes do not fit.
@Suite struct RoundedSceneTests {
    static let scene = """
        {"format": "dynamics-scene/1", "configuration": {"workers": 1, "rest": false},
         "items": [{"id": "capsule", "shape": {"type": "capsule", "width": 100, "height": 40}, "center": [-300, -100]},
                   {"id": "box", "shape": {"type": "roundedRectangle", "width": 100, "height": 60, "radius": 10}, "center": [0, -100]},
                   {"id": "hex", "shape": {"type": "hull", "radius": 5,
                    "points": [[30, 0], [15, 26], [-15, 26], [-30, 0], [-15, -26], [15, -26]]}, "center": [300, -100]},
                   {"id": "pair", "center": [600, -100], "shape": {"type": "group", "parts": [
                      {"shape": {"type": "capsule", "width": 20, "height": 80}, "offset": [-20, 0]},
                      {"shape": {"type": "polygon", "points": [[-10, -30], [10, -30], [10, 30], [-10, 30]], "radius": 10}, "offset": [20, 0]}]}}],
         "behaviors": [{"type": "gravity"}, {"type": "collision", "boundaries": [{"id": "floor", "type": "segment", "from": [-1000, 0], "to": [1000, 0]}]}]}
        """

    @Test("a scene file's capsule, rounded rectangle, rounded hull and rounded group rest on the floor at their outlines")
    func resting() throws {
        let run = try SceneFileTests.run(Self.scene, seconds: 3)
        // Half heights: the capsule's 20, the box's 30, the hexagon's 26 + 5, the group's 40 (both parts: the
        // capsule's 30 + 10, the rounded rectangle's 30 + 10); resting contacts overlap by about the linear slop.
        for (k, half) in [(0, 20.0), (1, 30.0), (2, 31.0), (3, 40.0)] {
            let pose = run.world.pose(of: run.itemIDs[k])
            #expect(abs(pose.center.y + half) < 1, "\(run.itemNames[k]): centre at \(pose.center.y), expected \(-half)")
        }
        let document = try SceneDocument.parse(Data(Self.scene.utf8))
        #expect(SceneDocument.read(Data(document.json.utf8), yaml: false).0 == document, "the shapes read back")
        guard case .roundedPolygon(let corners, let radius) = document.items[2].shape else {
            Issue.record("the hull with a radius is not a rounded polygon: \(document.items[2].shape)")
            return
        }
        #expect(corners.count == 6 && radius == 5)
    }

    @Test("the reader refuses a corner radius beyond half the shorter side, and a negative polygon radius")
    func refuses() {
        let big = Self.scene.replacingOccurrences(of: "\"height\": 60, \"radius\": 10", with: "\"height\": 60, \"radius\": 31")
        #expect(SceneFileTests.problems(big).contains { $0.path == "/items/1/shape/radius" && $0.message.contains("half the shorter side") })
        let negative = Self.scene.replacingOccurrences(of: "\"type\": \"hull\", \"radius\": 5", with: "\"type\": \"hull\", \"radius\": -5")
        #expect(SceneFileTests.problems(negative).contains { $0.path == "/items/2/shape/radius" })
    }
}
